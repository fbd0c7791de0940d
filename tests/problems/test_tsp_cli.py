"""`mols run` and `mols evaluate` on the TSP and the bi-objective TSP, end to end."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from typer.testing import CliRunner

from mols.cli import app
from mols.problems import load_problem

runner = CliRunner()


def test_run_tsp_tabu(tmp_path):
    result = runner.invoke(app, ["run", "kroA100", "-p", "tsp", "-a", "tabu", "-i", "50", "-b", "cpu",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    front = pd.read_csv(tmp_path / "front.csv")
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["iterations"] == 50 and run["neighbors_per_iteration"] == 4950 and run["config"]["neighborhood"] == "2opt"
    tour = np.array(front["solution"][0].split(), dtype=np.int32)
    assert load_problem("tsp", "kroA100").evaluate(tour)[0] == front["length"][0]


def test_run_bitsp_pls(tmp_path):
    result = runner.invoke(app, ["run", "kroAB100", "-p", "bitsp", "-a", "pls", "-i", "50", "-b", "cpu",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    front = pd.read_csv(tmp_path / "front.csv")
    assert list(front.columns) == ["length_kroA100", "length_kroB100", "solution"] and len(front) > 1
    problem = load_problem("bitsp", "kroAB100")
    X = np.array([s.split() for s in front["solution"]], dtype=np.int32)
    np.testing.assert_array_equal(problem.evaluate(X), front[["length_kroA100", "length_kroB100"]].to_numpy())


def test_evaluate_tsp_neighborhood_and_errors(tmp_path):
    out = tmp_path / "F.csv"
    result = runner.invoke(app, ["evaluate", "eil101", "-p", "tsp", "-n", "2opt", "-b", "cpu", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 101 * 100 // 2
    result = runner.invoke(app, ["evaluate", "eil101", "-p", "tsp", "-n", "insertion", "-b", "cpu"])
    assert result.exit_code == 1 and "does not support the insertion neighborhood" in result.output
    bad = tmp_path / "bad.tsp"
    bad.write_text("NAME : b\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : GEO\nNODE_COORD_SECTION\n1 0 0\n")
    result = runner.invoke(app, ["run", str(bad), "-p", "tsp", "-a", "tabu", "-i", "5", "-b", "cpu"])
    assert result.exit_code == 1 and "EDGE_WEIGHT_TYPE 'GEO' is not supported" in result.output
    assert "bad.tsp" in result.output
