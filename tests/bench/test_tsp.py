"""`mols bench tsp` on the CPU with tiny budgets: the table, the extrapolation mark, the rates, the files."""

from __future__ import annotations

import pandas as pd
from pytest import approx
from typer.testing import CliRunner

from mols.bench import common, tsp
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

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
    table = tsp.summary(runs, 100)
    cpu1 = table[table["backend"] == "cpu1"].iloc[0]  # the median of 200 and 400 ms, between them
    assert (cpu1["s_per_iteration"], cpu1["s_per_iteration_min"], cpu1["s_per_iteration_max"]) == approx((0.3, 0.2, 0.4))
    assert cpu1["s_budget"] == approx(30.0) and cpu1["estimated"] and cpu1["seeds"] == 2
    assert (cpu1["paper_m2050_s"], cpu1["paper_cpu_s"], cpu1["paper_gtx280_s"]) == (0.4, 1.4, 0.6)
    (row,) = tsp.paper_table(table)
    assert row["cpu1 s / 100 it."].endswith(" (extrapolated from 10 it.)") and "extrapolated" not in row["gpu s / 100 it."]
    assert row["cpu1 best (gap)"] == "650 (3.3%)" and row["gpu best (gap)"] == "640 (1.7%)"
    assert markdown_spreads(row["GPU vs cpu1"]) == [(30.0, 20.0, 40.0)]  # 300 ms over 10, 200 and 400 over 10


def test_bench_tsp_cli_writes_the_report(tmp_path):
    result = runner.invoke(app, ["bench", "tsp", "--instances", "eil101", "--rate-instances", "random:60:1",
                                 "--backends", "cpu1,cpu", "-i", "30", "--seeds", "2", "--cpu-moves", "60000",
                                 "--rate-iterations", "4", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    runs = pd.read_csv(tmp_path / "tsp_runs.csv")
    assert len(runs) == 4 and set(runs["iterations"]) == {11}  # 60,000 moves / 5,050 neighbors
    assert (runs["best"] >= 629).all()
    table = pd.read_csv(tmp_path / "tsp_table.csv")
    assert list(table["backend"]) == ["cpu1", "cpu"] and (table["seeds"] == 2).all()
    for key in ("s_per_iteration", "s_budget"):
        assert len(measured_spreads(table, key)) == 2
    rates = pd.read_csv(tmp_path / "tsp_rates.csv")
    assert set(rates["neighborhood"]) == {"swap", "2opt"} and set(rates["neighbors"]) == {60 * 59 // 2}
    assert len(rates) == 4 and (rates["seeds"] == 2).all()  # a row per neighborhood and backend, over the seeds
    for key in ("s_per_iteration", "moves_per_s"):
        assert len(measured_spreads(rates, key)) == 4
    text = (tmp_path / "tsp.md").read_text()
    assert "eil101" in text and "(extrapolated from 11 it.)" in text and "random:60:1" in text
    assert len(markdown_spreads(text)) >= 12  # ms/it. and s for the budget (table), moves/s and ms/it. (rates)


def test_the_table_is_the_2009_reports_twelve_instances_with_the_papers_times():
    assert len(tsp.TABLE_INSTANCES) == 12 and set(tsp.PAPER_GTX280_S) == set(tsp.TABLE_INSTANCES)
    assert set(tsp.PAPER_M2050_S) < set(tsp.TABLE_INSTANCES)
    for name in ("lin318", "rd400", "att532", "pcb1173"):  # bundled, with their optimum
        assert tsp.city_count(name) == int(name.removeprefix("lin").removeprefix("rd").removeprefix("att")
                                           .removeprefix("pcb"))


def test_bench_tsp_rejects_unknown_instances(tmp_path):
    result = runner.invoke(app, ["bench", "tsp", "--instances", "kroA100", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--instances: unknown kroA100" in result.output
