"""`mols bench q3ap` and `mols run -p q3ap` through the CLI, on tiny budgets."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

import mols
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def test_run_writes_pairs_of_permutations_and_their_costs(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "nug12", "-p", "q3ap", "-n", "basic", "-a", "its", "-i", "40", "-b", "cpu",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    front = pd.read_csv(out / "front.csv")
    problem = mols.load_problem("q3ap", "nug12")
    x = problem.encoding.parse(front["solution"][0])
    assert " | " in front["solution"][0] and problem.evaluate(x)[0] == front["cost"][0]


def test_a_neighborhood_of_another_problem_is_a_clean_error(tmp_path):
    result = runner.invoke(app, ["run", "nug12", "-p", "q3ap", "-n", "swap", "-b", "cpu", "-o", str(tmp_path / "r")])
    assert result.exit_code == 1 and "choose basic or advanced" in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_bench_writes_table_one_and_the_comparison(tmp_path):
    result = runner.invoke(app, ["bench", "q3ap", "--instances", "nug12", "--runs", "2", "--ils", "2", "--ts", "5",
                                 "--cpu-iterations", "2", "--compare", "nug12", "--compare-iterations", "3",
                                 "--compare-runs", "1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    table, compare = pd.read_csv(tmp_path / "q3ap_table.csv"), pd.read_csv(tmp_path / "q3ap_compare.csv")
    assert list(table["instance"]) == ["nug12"] and table["runs"][0] == 2 and table["mean_ils"][0] <= 2
    assert list(compare["neighborhood"]) == ["advanced", "basic"]
    assert compare["evaluations"][0] == 3 * 66 * 66 and compare["iterations"][1] == round(3 * 66 * 66 / 132)
    for key in ("seconds", "cpu1_s_est", "acceleration"):
        assert len(measured_spreads(table, key)) == 1
    assert len(measured_spreads(compare, "seconds")) == 2
    text = (tmp_path / "q3ap.md").read_text()
    assert "Table I" in text and len(markdown_spreads(text)) == 3 + 2  # Table I's times and acceleration, Fig. 2's
    assert runner.invoke(app, ["bench", "q3ap", "--instances", "nug13", "-o", str(tmp_path)]).exit_code == 1
