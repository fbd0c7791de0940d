"""`mols bench qap` on a tiny budget: rows, gaps to the best known, the report files and the CLI."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.bench import qap
from mols.cli import app
from mols.environment import environment
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_tabu_and_its_rows_and_report(tmp_path):
    tabu = qap.tabu_rows(["tai12a", "tai15a"], ["cpu1", "cpu1-plain"], iterations=60, plain_iterations=20, seeds=2)
    its = qap.its_rows({"tai12a": 120}, ["cpu"], seeds=1)
    assert [(r["instance"], r["backend"], r["iterations"]) for r in tabu] == [
        ("tai12a", "cpu1", 60), ("tai12a", "cpu1-plain", 20), ("tai15a", "cpu1", 60), ("tai15a", "cpu1-plain", 20)]
    for row in tabu + its:
        best = row["best_cost"]
        gap = row["gap_percent"] if "gap_percent" in row else row["best_gap_percent"]
        assert best >= row["best_known"] and abs(gap - 100 * (best / row["best_known"] - 1)) < 1e-9
    assert [r["estimated"] for r in tabu] == [False, True, False, True]
    for key in ("seconds", "ms_per_iteration", "seconds_full_budget"):
        assert len(measured_spreads(tabu, key)) == 4
    assert len(measured_spreads(its, "seconds")) == 1
    md = qap.write_report(tabu, its, environment(), tmp_path)
    text = md.read_text()
    assert "| tai12a | 12 | cpu1-plain | 20 |" in text and " est." in text and "Iterated tabu search" in text
    assert len(pd.read_csv(tmp_path / "qap_tabu.csv")) == 4 and len(pd.read_csv(tmp_path / "qap_its.csv")) == 1
    assert len(measured_spreads(pd.read_csv(tmp_path / "qap_tabu.csv"), "seconds_full_budget")) == 4
    assert len(markdown_spreads(text)) == 2 * 4 + 1  # ms / iteration and s for the budget of each row, ITS s


def test_cli_bench_qap(tmp_path):
    result = CliRunner().invoke(app, ["bench", "qap", "--instances", "tai12a", "--backends", "cpu1", "-i", "30",
                                      "--seeds", "1", "--its", "tai12a=40", "--its-backends", "cpu1",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "qap.md").is_file() and (tmp_path / "qap_its.csv").is_file()


def test_cli_bench_qap_bad_its_exits_1(tmp_path):
    result = CliRunner().invoke(app, ["bench", "qap", "--its", "tai12a:40", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--its" in result.output
