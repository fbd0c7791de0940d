"""3-exchange on the permutation problems, on the CPU: QAP's O(n) change of a 3-cycle against full evaluation, the
tabu memory (both rotations of a triple forbidden), and searches with -n 3exchange through mols.solve and the CLI.
(The flowshop's and the TSP's deltas: tests/backends/test_cpu.py, tests/problems/test_tsp_model.py.)"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.algorithms.tabu.walks import host_walk
from mols.backends import BackendSpec, prepare
from mols.cli import app
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.runner import RunConfig, solve
from tests.problems.test_qap import random_qap
from tests.search.conftest import check_archive

THREE, SWAP = get_neighborhood("3exchange"), get_neighborhood("swap")


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("n", [3, 4, 5, 9])
def test_qap_cycle_deltas_equal_full_evaluation(rng, symmetric, k, n):
    """Every move's cost (cycles.py) along a walk of 3-cycles and swaps (the state rebuilt after a 3-cycle, updated
    after a swap), on all cores and on one, with and without the incremental setting."""
    problem = random_qap(rng, n, k, symmetric)
    assert problem.symmetric == symmetric
    evaluators = [prepare(problem, THREE, "cpu"), prepare(problem, THREE, BackendSpec("cpu", threads=1,
                                                                                      incremental=False))]
    x = problem.random_solution(rng)
    for step in range(12):
        expected = problem.evaluate(THREE.apply_many(x, np.arange(THREE.size(n))))
        for evaluator in evaluators:
            np.testing.assert_array_equal(evaluator.evaluate(x), expected)
        moves = THREE if step % 3 else SWAP
        x = problem.random_solution(rng) if step == 7 else moves.apply(x, int(rng.integers(moves.size(n))))


def test_qap_int64_costs_and_bundled_mqap(rng):
    for problem in (load_problem("qap", "tai150b"), load_problem("mqap", "KC10-2fl-1uni")):
        evaluator = prepare(problem, THREE, "cpu")
        x = problem.random_solution(rng)
        ids = rng.choice(THREE.size(problem.n), size=min(3000, THREE.size(problem.n)), replace=False)
        np.testing.assert_array_equal(evaluator.evaluate(x)[ids], problem.evaluate(THREE.apply_many(x, ids)))
    assert load_problem("qap", "tai150b").dtype == np.int64


def cycle_taken(before, after) -> int:
    """The id of the 3-cycle that made `after` of `before`: position a's value went to b, b's to c."""
    a = int(np.flatnonzero(before != after)[0])
    b = int(np.flatnonzero(after == before[a])[0])
    c = int(np.flatnonzero(after == before[b])[0])
    return THREE.index(a, b, c, len(before))


@pytest.mark.parametrize("problem, instance", [("qap", "tai12a"), ("tsp", "random:30:1"), ("flowshop", "020_05_01")])
def test_a_tabu_walk_takes_no_rotation_of_a_recent_triple(rng, problem, instance):
    """After a 3-cycle both rotations of its triple are tabu for `tenure` steps: its inverse, and the move itself,
    which taken twice more would come back. Without aspiration (threshold -inf), no step takes either."""
    problem = load_problem(problem, instance)
    evaluator, tenure = prepare(problem, THREE, "cpu"), 15
    x = problem.random_solution(rng)
    walk = np.concatenate([batch[0] for batch in host_walk(evaluator, THREE, x, np.ones(problem.n_obj), -np.inf,
                                                            120, tenure)])
    taken = [cycle_taken(before, after) for before, after in zip(np.vstack([x, walk[:-1]]), walk)]
    for t, move in enumerate(taken):
        recent = {m // 2 for m in taken[max(0, t - tenure):t]}
        assert move // 2 not in recent, (t, move)


def test_tabu_and_climbing_with_3exchange_through_solve():
    """Tabu search on tai12a: its archive's costs are the reference's, and far below random ones; hill climbing
    ends at a local optimum of 3-exchange (no neighbor better); the same seed gives the same archive."""
    problem = load_problem("qap", "tai12a")
    config = RunConfig("tai12a", problem="qap", algorithm="tabu", neighborhood="3exchange", backend="cpu",
                       iterations=300, seed=1)
    result, again = solve(config), solve(config)
    assert result.status == "completed" and result.n_neighbors == 440
    check_archive(problem, result.archive)
    np.testing.assert_array_equal(result.archive.X, again.archive.X)
    assert result.archive.F.min() < 245_000  # random permutations: 312,000 on average, none below 255,000 in 20,000
    climb = solve(RunConfig("tai12a", problem="qap", algorithm="hc", neighborhood="3exchange", backend="cpu",
                            iterations=60, seed=2))
    best = climb.archive.X[0]
    assert problem.evaluate(THREE.apply_many(best, np.arange(440)))[:, 0].min() >= climb.archive.F[0, 0]


@pytest.mark.parametrize("args", [["tai12a", "-p", "qap", "-a", "its", "--run-length", "20"],
                                  ["kroA100", "-p", "tsp", "-a", "hc"], ["020_05_01", "-a", "pls"]])
def test_cli_runs_3exchange(tmp_path, args):
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", *args, "-n", "3exchange", "-b", "cpu", "-i", "20", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text())["config"]["neighborhood"] == "3exchange"
    front = pd.read_csv(out / "front.csv")
    problem = load_problem(args[2] if args[1] == "-p" else "flowshop", args[0])
    X = np.array([[int(v) for v in text.split()] for text in front["solution"]])
    np.testing.assert_array_equal(problem.evaluate(X), front[list(problem.objectives)].to_numpy())
