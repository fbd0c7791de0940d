"""`mols bench cluster`: a tiny CPU run on local Dask clusters of 1 and 2 workers (its files, rows, speed-ups and the
paper's figures beside them), the default worker counts, the paper's tables against Table 4, a bad --instances named
without a traceback, and on a device the GPU column."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.bench import cluster as bench
from mols.bench.ppp import PAPER_M2050_S
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()
# 73-73 has 2,628 Hamming-2 neighbors: a cap of 26,280 gives the CPU searches 10 of the 20 iterations
TINY = ["bench", "cluster", "--instances", "73-73", "--workers", "1,2", "-k", "2", "-i", "20", "--repeats", "2",
        "--cpu-moves", "26280"]


def test_bench_cluster_cpu_columns_write_the_report(tmp_path):
    result = runner.invoke(app, [*TINY, "--no-gpu", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "cluster.csv")
    assert list(zip(df.instance, df.column, df.workers)) == [("73-73", "cpu1", 1), ("73-73", "cpu2", 2)]
    assert (df.iterations == 10).all() and (df.budget == 20).all() and df.estimated.all()
    assert (df.searches == 2).all() and (df.per_task == 1).all() and (df.neighbors == 2628).all()
    assert (df.seconds_full > df.seconds).all() and df.x_cpu1[0] == 1.0
    for key in ("seconds", "seconds_full", "x_cpu1"):
        assert len(measured_spreads(df, key)) == 2
    assert list(pd.read_csv(tmp_path / "clusters.csv").column) == ["cpu1", "cpu2"]
    md = (tmp_path / "cluster.md").read_text()
    assert "| instance | neighbors | K × iterations | cpu1 s | cpu2 s" in md and "| 73-73 | 2,628 | 2 × 20 | " in md
    assert len(markdown_spreads(md)) == 3  # cpu1's time, cpu2's time and its speed-up
    assert "8: ×3.5 / 32: ×1.6 / 88: ×0.4 / 104: ×0.4" in md  # Table 10's COW row of 73-73
    assert "| gpu1 s" not in md and not (tmp_path / bench.SCRATCH).exists()


def test_without_a_device_the_gpu_column_is_skipped_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr("mols.parallel.workers.visible_gpus", list)
    monkeypatch.setattr(bench, "run", lambda cases, workers, gpu, *args: ([], []) if not gpu else pytest.fail("gpu"))
    result = runner.invoke(app, [*TINY, "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "gpu1: skipped, no GPU visible" in (tmp_path / "cluster.md").read_text()


def test_default_workers_go_to_the_cores_then_two_machines_worth():
    assert bench.default_workers(16) == [1, 2, 4, 8, 16, 32]
    assert bench.default_workers(12) == [1, 2, 4, 8, 12, 24]
    assert bench.default_workers(1) == [1, 2]


def test_the_papers_tables_cover_every_size_and_agree_with_table_4():
    for table in (bench.PAPER_GPU, bench.PAPER_COW, bench.PAPER_GRID):
        assert list(table) == sorted(table) and all(list(row) == list(bench.INSTANCES) for row in table.values())
    # The 104-core configuration's GPU is the Tesla M2050 of Table 4; the text quotes the 32-core COW's peak
    assert {k: s for k, (s, _) in bench.PAPER_GPU[104].items()} == PAPER_M2050_S["hamming2"]
    assert bench.PAPER_COW[32]["401-417"] == (39, 11.3) and bench.PAPER_COW[32]["73-73"][1] == 1.6


def test_bench_cluster_names_a_bad_instance(tmp_path):
    result = runner.invoke(app, ["bench", "cluster", "--instances", "73-73,99-99", "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "--instances" in result.output and "99-99" in result.output and "Traceback" not in result.output


@pytest.mark.gpu
def test_bench_cluster_gpu_column_against_one_core(tmp_path):
    result = runner.invoke(app, [*TINY, "--workers", "1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "cluster.csv")
    assert list(df.column) == ["cpu1", "gpu1"]
    gpu = df[df.column == "gpu1"].iloc[0]
    assert gpu.iterations == 20 and not gpu.estimated and gpu.workers == 1
    assert len(measured_spreads(df, "x_cpu1")) == 2
    assert "| gpu1 s |" in (tmp_path / "cluster.md").read_text()
