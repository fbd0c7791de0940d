"""mols bench ils3opt --paper: the cells at the paper's budgets, Δavg from the tours against the optimum, the paper's
figures beside ours, and the sequential validation (CPU strategies, kroA100 capped)."""

from __future__ import annotations

import math

from typer.testing import CliRunner

from mols.bench import ils3opt_paper as paper
from mols.bench import ils3opt_tables as tables
from mols.cli import app


def test_cells_take_the_papers_budgets_and_sit_beside_its_figures():
    df = tables.run_tables(["kroA100"], ["cpu", "cpu-rkbi"], [8], trials=2, time_cap=0.5, twin=2)
    assert list(df["solver"]) == ["cpu", "cpu-rkbi"] and list(df["table"]) == [1, 3]
    fi, rkbi = df.iloc[0], df.iloc[1]
    assert fi["it_total"] == 1_048_576 and fi["it_lim"] == 131_072 and math.isnan(fi["k"])
    assert rkbi["it_total"] == 1_120_000 and rkbi["k"] == 5_500 and rkbi["it_lim"] == 140_000
    assert fi["capped"] == 2 and fi["per_solution"] < fi["it_lim"]  # 0.5 s cuts the budget: said so
    assert fi["paper_freq"] == 1.0 and fi["paper_dev"] == 0.0 and rkbi["paper_dev"] == 0.0
    assert fi["twin_equal"] and fi["twin_speedup"] > 0
    assert fi["optimum"] == 21282 and fi["best"] >= 21282 and (fi["dev"] == 0) == (fi["freq"] == 1)
    text = tables.render_tables(df)
    assert "| 1 | kroA100 | 8 | CPU (cpu) | 2 | 1,048,576 / - |" in text
    assert "| 3 | kroA100 | 8 | CPU-RKBI (cpu-rkbi) | 2 | 1,120,000 / 5,500 |" in text


def test_paper_tables_hold_the_papers_figures():
    assert paper.budget("rkbi", "rat783", 512) == {"it_total": 560_000, "k": 10_000, "blocks": 10}
    assert paper.budget("fi-block", "pcb3038", 1)["it_total"] == 1_048_576
    assert paper.paper("fi-block-shared", "lin318", 2048)["paper_speedup"] == 8.51
    assert paper.paper("fi-block-shared", "pcb3038", 64)["paper_speedup"] is None  # the paper's "-"
    assert paper.paper("rkbi", "lin318", 64) == {"paper_speedup": 45.40, "paper_freq": 0.0, "paper_dev": 0.633}
    assert paper.trials(783) == 20 and paper.trials(1577) == 10


def test_sequential_deviation_is_the_solutions_lengths_against_the_optimum():
    r = tables.sequential_row("kroA100", "cpu", 3, 0.5)
    lengths = r["lengths"]
    assert len(lengths) == 3 and r["capped"] and r["it_total"] == 1_048_576
    assert math.isclose(r["dev"], sum(100 * (x / 21282 - 1) for x in lengths) / 3)
    assert r["freq"] == sum(x == 21282 for x in lengths) / 3
    assert r["paper_freq"] == 1.0 and r["paper_dev"] == 0.0 and r["ms_per_it"] > 0


def test_command_writes_the_report_and_names_bad_flags(tmp_path):
    result = CliRunner().invoke(app, ["bench", "ils3opt", "--paper", "--instances", "kroA100", "--solvers", "cpu",
                                      "--populations", "1", "--trials", "1", "--time", "0.3", "--twin", "1",
                                      "--sequential", "cpu", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "ils3opt_paper.md").read_text()
    assert "## Tables 1 and 3" in text and "## The sequential ILS" in text
    assert "Cut: 1 cells of 1 asked" in text and "1 trials a cell" in text and "1 cut short" in text
    assert (tmp_path / "ils3opt_paper.csv").exists() and (tmp_path / "ils3opt_sequential.csv").exists()
    for args, flag in ((["--paper", "--solvers", "fi-thread,cpu1"], "--solvers"),
                       (["--paper", "--sequential", "rkbi"], "--sequential"),
                       (["--paper", "--rkbi-blocks", "many"], "--rkbi-blocks"), (["--trials", "3"], "--trials"),
                       (["--combine", str(tmp_path)], "--combine"),
                       (["--paper", "--combine", str(tmp_path / "empty")], "--combine")):
        bad = CliRunner().invoke(app, ["bench", "ils3opt", *args, "-o", str(tmp_path)])
        assert bad.exit_code == 1 and flag in bad.output, (args, bad.output)



def test_twin_runs_repeats_only_the_first_trials_on_one_core():
    df = tables.run_tables(["kroA100"], ["cpu"], [4], trials=3, time_cap=0.3, twin=1, twin_runs=1)
    row = df.iloc[0]
    assert row["runs"] == 3 and row["twin_runs"] == 1 and row["twin_equal"]
    assert row["twin_speedup_min"] == row["twin_speedup"] == row["twin_speedup_max"]  # one twin: no spread


def test_each_cell_reaches_the_report_before_the_next_runs(tmp_path, monkeypatch):
    """A run killed by a time limit (the process leaves at once) keeps the cells done: the report is rewritten
    after each cell, so it holds the first when the second fails."""
    real = tables.table_cell

    def second_fails(instance, solver, nbsol, *args):
        if nbsol == 2:
            raise RuntimeError("killed")
        return real(instance, solver, nbsol, *args)

    monkeypatch.setattr(tables, "table_cell", second_fails)
    result = CliRunner().invoke(app, ["bench", "ils3opt", "--paper", "--instances", "kroA100", "--solvers", "cpu",
                                      "--populations", "1,2", "--trials", "1", "--time", "0.2", "--twin", "0",
                                      "-o", str(tmp_path)])
    assert result.exit_code != 0
    assert "Cut: 1 cells of 2 asked" in (tmp_path / "ils3opt_paper.md").read_text()


def test_combine_puts_the_parts_cells_into_the_tables_order(tmp_path):
    parts = tmp_path / "parts"
    for name, solver, populations in (("b", "cpu", [2, 1]), ("a", "cpu-rkbi", [1])):
        df = tables.run_tables(["kroA100"], [solver], populations, trials=1, time_cap=0.2, twin=0)
        tables.write_report(df, df.iloc[0:0], parts / name, {}, "Cut: none.")
    result = CliRunner().invoke(app, ["bench", "ils3opt", "--paper", "--combine", str(parts),
                                      "-o", str(tmp_path / "all")])
    assert result.exit_code == 0, result.output
    combined = tables.read_parts(parts)
    assert list(zip(combined["solver"], combined["population"])) == [("cpu", 1), ("cpu", 2), ("cpu-rkbi", 1)]
    text = (tmp_path / "all" / "ils3opt_paper.md").read_text()
    assert f"Cut: 3 cells of {paper.CELLS} (" in text and text.count("| kroA100 |") == 3
