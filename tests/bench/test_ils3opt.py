"""mols bench ils3opt: rows, speed-ups against cpu1 and the report, on kroA100 (quick: it reaches the optimum)."""

from __future__ import annotations

import math

from typer.testing import CliRunner

from mols.bench import ils3opt as bench
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_rows_and_speedups():
    df = bench.run(["kroA100"], ["cpu1", "cpu"], [64], [1, 4], runs=2, iterations=4000, time_cap=20, cpu_time=20,
                   gap=None)  # cpu1 and cpu take the cpu populations
    assert list(df["solver"]) == ["cpu1", "cpu1", "cpu", "cpu"] and list(df["population"]) == [1, 4, 1, 4]
    assert (df["freq"] == 1.0).all() and (df["reached"] == 2).all() and (df["dev"] == 0).all()
    cpu1 = df[(df["solver"] == "cpu1") & (df["population"] == 4)].iloc[0]
    assert math.isclose(cpu1["speedup"], 1.0)
    assert math.isclose(df.iloc[3]["speedup"], df.iloc[3]["it_per_s"] / cpu1["it_per_s"])
    assert math.isclose(df.iloc[3]["speedup_min"], df.iloc[3]["it_per_s_min"] / cpu1["it_per_s_max"])
    for key in ("seconds", "t_target", "it_per_s", "speedup", "q_speedup"):
        assert len(measured_spreads(df, key)) == 4


def test_command_writes_the_report(tmp_path):
    result = CliRunner().invoke(app, ["bench", "ils3opt", "--instances", "kroA100", "--solvers", "cpu1",
                                      "--populations", "2", "--runs", "1", "--time", "10", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "ils3opt.md").read_text()
    assert "| kroA100 | 0 | 2 | cpu1 | 1.00 | 0.000 | 1/1 |" in text
    assert len(markdown_spreads(text)) == 5  # t_target, seconds, it/s, speed-up and q-speed-up
    bad = CliRunner().invoke(app, ["bench", "ils3opt", "--solvers", "gpu9", "-o", str(tmp_path)])
    assert bad.exit_code == 1 and "--solvers" in bad.output


def test_a_twin_repeats_the_runs_solutions_on_one_core():
    df = bench.run(["kroA100"], ["cpu"], [4], [4], runs=2, iterations=400, time_cap=20, cpu_time=20, gap=0.5,
                   twin=2)
    r = df.iloc[0]
    assert r["twin_equal"] and r["twin_sample"] == 2  # solutions 0 and 1 found again, length for length
    assert r["twin_s"] > 0 and math.isclose(r["twin_speedup"] * r["seconds"], r["twin_s"], rel_tol=0.5)
    for key in ("twin_s", "twin_speedup"):
        assert len(measured_spreads(df, key)) == 1
    text = bench.render(df, {}, {})
    assert "twin speed-up" in text and ", 2 of 4 |" in text and "| yes |" in text


def test_merged_rows_twin_whole_and_quality_against_the_fastest_core():
    df = bench.run(["lin318"], ["cpu1", "cpu1-merged", "cpu-merged"], [8], [1, 8], runs=1, iterations=8 * 320,
                   time_cap=20, cpu_time=20, gap=0.8, twin=2, island=4)
    assert list(df["solver"]) == ["cpu1", "cpu1", "cpu1-merged", "cpu1-merged", "cpu-merged", "cpu-merged"]
    assert (df["reached"] == 1).all()
    merged = df[df["solver"] == "cpu-merged"].iloc[1]
    assert merged["twin_equal"] and merged["twin_sample"] == 4  # its first island of 4, length for length
    assert merged["island"] == 4 and df.iloc[4]["island"] == 1  # islands of min(--island, population)
    fastest = df[df["solver"].isin(["cpu1", "cpu1-merged"])]["t_target"].min()
    assert math.isclose(merged["q_speedup"], fastest / merged["t_target"]) and merged["q_bound"] == ""


def test_each_row_reaches_the_report_before_the_next_runs(tmp_path, monkeypatch):
    """Ctrl-C ends `mols` at once: the report, rewritten after each row, holds the rows done (here: the first, the
    second failing)."""
    real = bench.row

    def second_fails(instance, solver, population, *args, **kwargs):
        if population == 2:
            raise RuntimeError("killed")
        return real(instance, solver, population, *args, **kwargs)

    monkeypatch.setattr(bench, "row", second_fails)
    result = CliRunner().invoke(app, ["bench", "ils3opt", "--instances", "kroA100", "--solvers", "cpu1",
                                      "--populations", "1,2", "--runs", "1", "--time", "5", "-o", str(tmp_path)])
    assert result.exit_code != 0
    text = (tmp_path / "ils3opt.md").read_text()
    assert "| kroA100 |" in text and text.count("| cpu1 |") == 1
