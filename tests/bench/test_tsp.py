"""`mols bench tsp` on the CPU with tiny budgets: the table, the extrapolation mark, the rates, the files."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.bench import common, tsp
from mols.cli import app

runner = CliRunner()


def test_cpu_budget_is_bounded_by_moves():
    assert common.cpu_budget(10_000, 5050, 10**9) == 10_000
    assert common.cpu_budget(10_000, 17_490_655, 2 * 10**9) == 114
    assert common.cpu_budget(10_000, 17_490_655, 10) == common.MIN_CPU_ITERATIONS


def test_paper_table_marks_extrapolated_times_and_gaps():
    runs = pd.DataFrame([
        {"instance": "eil101", "backend": "cpu1", "neighbors": 5050, "iterations": 10, "seconds": 2.0, "best": 700},
        {"instance": "eil101", "backend": "cpu1", "neighbors": 5050, "iterations": 10, "seconds": 4.0, "best": 650},
        {"instance": "eil101", "backend": "gpu", "neighbors": 5050, "iterations": 100, "seconds": 1.0, "best": 640},
    ])
    (row,) = tsp.paper_table(runs, 100)
    assert row["cpu1 ms/it."] == "300.000"  # the median of 200 and 400 ms
    assert row["cpu1 s / 100 it."] == "30.00 (extrapolated from 10 it.)"
    assert row["gpu s / 100 it."] == "1.00"
    assert row["cpu1 best (gap)"] == "650 (3.3%)" and row["gpu best (gap)"] == "640 (1.7%)"
    assert row["GPU vs cpu1"] == "x30.0" and row["paper M2050 s"] == 0.4


def test_bench_tsp_cli_writes_the_report(tmp_path):
    result = runner.invoke(app, ["bench", "tsp", "--instances", "eil101", "--rate-instances", "random:60:1",
                                 "--backends", "cpu1,cpu", "-i", "30", "--seeds", "2", "--cpu-moves", "60000",
                                 "--rate-iterations", "4", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "tsp_table.csv")
    assert len(table) == 4 and set(table["iterations"]) == {11}  # 60,000 moves / 5,050 neighbors
    assert (table["best"] >= 629).all()
    rates = pd.read_csv(tmp_path / "tsp_rates.csv")
    assert set(rates["neighborhood"]) == {"swap", "2opt"} and set(rates["neighbors"]) == {60 * 59 // 2}
    text = (tmp_path / "tsp.md").read_text()
    assert "eil101" in text and "(extrapolated from 11 it.)" in text and "random:60:1" in text


def test_bench_tsp_rejects_unknown_instances(tmp_path):
    result = runner.invoke(app, ["bench", "tsp", "--instances", "kroA100", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--instances: unknown kroA100" in result.output
