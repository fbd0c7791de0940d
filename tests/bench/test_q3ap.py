"""`mols bench q3ap` (Table I, and Fig. 2 alone) and `mols run -p q3ap` through the CLI, on tiny budgets."""

from __future__ import annotations

import statistics

import pandas as pd
import pytest
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


def test_bench_draws_fig_two_alone_with_its_spread(tmp_path):
    """--instances none: the comparison alone, here on a random general instance: per neighborhood, the curve's points
    at equal evaluations (mean, sd, min, max over the seeds, never rising), the final costs of each seed, a rank test
    and the figure."""
    result = runner.invoke(app, ["bench", "q3ap", "--instances", "none", "--compare", "random:5:1",
                                 "--compare-iterations", "8", "--compare-runs", "3", "--compare-points", "4",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "q3ap_table.csv").exists()
    compare, curve = pd.read_csv(tmp_path / "q3ap_compare.csv"), pd.read_csv(tmp_path / "q3ap_fig2.csv")
    assert list(compare["neighborhood"]) == ["advanced", "basic"] and (compare["runs"] == 3).all()
    assert compare["evaluations"][0] == 8 * 100 and compare["iterations"][1] == 8 * 100 // 20
    assert len(curve) == 8 and list(curve["fraction"][:4]) == [0.25, 0.5, 0.75, 1.0]
    for name, points in curve.groupby("neighborhood"):
        row = compare[compare["neighborhood"] == name].iloc[0]
        finals = [int(c) for c in str(row["final_costs"]).split()]
        assert len(finals) == 3 and points["mean"].iloc[-1] == row["mean_cost"] == sum(finals) / 3
        assert points["min"].iloc[-1] == min(finals) and points["max"].iloc[-1] == max(finals)
        assert (points["mean"].diff().dropna() <= 0).all() and (points["min"] <= points["mean"]).all()
        assert list(points["evaluations"]) == [row["evaluations"] * f for f in (0.25, 0.5, 0.75, 1.0)]
        assert row["sd_best_at_100pc"] == pytest.approx(statistics.stdev(finals))
    text = (tmp_path / "q3ap.md").read_text()
    assert "Fig. 2" in text and "Mann-Whitney U test of the final costs" in text and "Table I" not in text
    assert (tmp_path / "q3ap_fig2.png").stat().st_size > 1000
