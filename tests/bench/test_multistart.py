"""`mols bench multistart` on the CPU: a tiny run on a local Dask cluster (files, rows, a capped run's "est.", where the
time went, new folders per repeat), the columns a machine keeps, the modes of a cell, the ratios and the GPU part of
the table from made-up rows, a bad --columns named without a traceback."""

from __future__ import annotations

import math
import os

import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.bench import multistart as bench
from mols.bench import multistart_report as report
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def test_bench_multistart_cpu_columns_write_the_report(tmp_path):
    # tai12a has 66 swap neighbors: a cap of 600 gives the CPU searches 9 of the 20 iterations
    result = runner.invoke(app, ["bench", "multistart", "--instances", "tai12a", "-k", "2", "-i", "20", "--columns",
                                 "cpu1,cpu", "--repeats", "1", "--cpu-moves", "600", "--no-flowshop",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "multistart.csv")
    assert list(zip(df.instance, df.column, df["mode"])) == [("tai12a", "cpu1", "one"), ("tai12a", "cpu", "one")]
    assert (df.iterations == 9).all() and (df.budget == 20).all() and df.estimated.all()
    assert (df.searches == 2).all() and (df.per_task == 1).all() and list(df.workers) == [1, os.cpu_count()]
    assert (df.seconds_full > df.seconds).all() and df.x_cpu1[0] == 1.0
    # where the time went: the driver's lead and tail around its tasks, which span at least the slowest one
    assert (df.lead_seconds >= 0).all() and (df.tail_seconds >= 0).all() and (df.task_ends_apart_seconds >= 0).all()
    assert (df.slowest_task_seconds > 0).all()
    assert (df.lead_seconds + df.slowest_task_seconds + df.tail_seconds <= df.seconds + 0.01).all()
    for key in ("seconds", "seconds_full", "x_cpu1"):
        assert len(measured_spreads(df, key)) == 2
    assert set(pd.read_csv(tmp_path / "clusters.csv").column) == {"cpu1", "cpu"}
    md = (tmp_path / "multistart.md").read_text()
    assert "| instance | n | search | K × iterations | cpu1 s | cpu (" in md
    assert "| tai12a | 12 | ITS | 2 × 20 | " in md and " est." in md and "- dask: " in md
    assert not (tmp_path / bench.SCRATCH).exists()


def test_each_repeat_writes_new_folders(tmp_path, monkeypatch):
    # a repeat into the folders of the one before would time replacing files, not what a fresh multistart writes
    timed, real = [], bench.timed_multistart
    monkeypatch.setattr(bench, "timed_multistart", lambda executor, fields, searches, folder, per_task: (
        timed.append((folder, folder.exists())) or real(executor, fields, searches, folder, per_task)))
    result = runner.invoke(app, ["bench", "multistart", "--instances", "tai12a", "-k", "2", "-i", "20", "--columns",
                                 "cpu1", "--repeats", "3", "--no-flowshop", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    repeats = [(folder, existed) for folder, existed in timed if folder.name != "warm-up"]
    assert len(repeats) == 3 and len({folder for folder, _ in repeats}) == 3
    assert not any(existed for _, existed in repeats)
    assert pd.read_csv(tmp_path / "multistart.csv").repeats.tolist() == [3]


def test_bench_multistart_names_a_bad_column(tmp_path):
    result = runner.invoke(app, ["bench", "multistart", "--columns", "cpu1,tpu", "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "--columns" in result.output and "tpu" in result.output and "Traceback" not in result.output


def test_columns_without_their_device_are_skipped_with_a_note():
    assert bench.plan_columns(list(bench.COLUMNS), 0) == (["cpu1", "cpu"], [
        "gpu1: skipped, no GPU visible (CuPy finds none)", "gpu: skipped, no GPU visible (CuPy finds none)"])
    kept, notes = bench.plan_columns(["gpu1", "gpu"], 1)
    assert kept == ["gpu1"] and notes[0].startswith("gpu: skipped")
    assert bench.plan_columns(["cpu", "gpu"], 2) == (["cpu", "gpu"], [])


def test_cases_modes_and_cpu_budgets():
    its = bench.qap_case("tai100a", 100_000, 10**6)
    assert (its.n, its.neighbors, its.fields["run_length"]) == (100, 4950, 1000)
    assert its.iterations("gpu") == 100_000 and its.iterations("cpu1") == 10**6 // 4950
    pls = bench.flowshop_case(1000, 150_000)
    assert (pls.instance, pls.neighbors, pls.iterations("cpu")) == ("200_20_01", 199**2, 3)
    assert bench.modes(its, "gpu", 20, 2) == [("one", 1), ("batched", 10)]
    assert bench.modes(its, "cpu", 20, 2) == [("one", 1)]
    assert bench.modes(its, "gpu", 4, 4) == [("one", 1)]  # a task of one search: batched would repeat `one`
    assert bench.modes(pls, "gpu", 20, 2) == [("one", 1)]  # PLS searches share no launch


def row(column: str, mode: str, seconds: float, estimated: bool = False) -> dict:
    return {"instance": "tai100a", "problem": "qap", "algorithm": "its", "n": 100, "column": column, "mode": mode,
            "searches": 20, "iterations": 10 if estimated else 100, "budget": 100, "estimated": estimated,
            "seconds": seconds, "seconds_full": seconds, "seconds_full_min": 0.9 * seconds,
            "seconds_full_max": 1.1 * seconds}


def test_ratios_and_the_gpu_part_of_the_table():
    rows = report.with_ratios([row("cpu1", "one", 80.0, estimated=True), row("gpu1", "one", 20.0),
                              row("gpu1", "batched", 4.0), row("gpu", "one", 10.0), row("gpu", "batched", 2.5)])
    ratios = {(r["column"], r["mode"]): (r["x_cpu1"], r["x_gpu1"]) for r in rows}
    assert ratios[("gpu", "one")] == (8.0, 2.0) and ratios[("gpu", "batched")] == (32.0, 1.6)
    assert ratios[("gpu1", "batched")][0] == 20.0 and math.isnan(ratios[("gpu1", "one")][1])
    x_cpu1 = measured_spreads(rows, "x_cpu1").iloc[1]  # gpu1 one: 80 s (72 ... 88) over 20 s (18 ... 22)
    assert (x_cpu1["x_cpu1"], x_cpu1["x_cpu1_min"], x_cpu1["x_cpu1_max"]) == pytest.approx((4.0, 72 / 22, 88 / 18))
    assert len(measured_spreads(rows, "x_gpu1")) == 2
    clusters = [{"column": "gpu1", "workers": 1, "start_seconds": 3.0}, {"column": "gpu", "workers": 2,
                                                                         "start_seconds": 4.0}]
    md = report.render_markdown(rows, clusters, [], {"gpus": "2: H200, H200"})
    assert ("| cpu1 s | gpu1 one s | gpu (2) one s | gpu1 batched s | gpu (2) batched s | gpu / gpu1 one | "
            "gpu / gpu1 batched |") in md
    assert "| 1220 / 153 / 110 / 57 |" in md
    assert len(markdown_spreads(md)) == 5 + 4 + 2  # each cell's time, its ratio to cpu1 (not cpu1's), gpu / gpu1
