"""Hill climbing and iterated local search end at local optima; a target value stops any search."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.backends import prepare
from mols.errors import MolsError
from mols.runner import RunConfig, build_search, solve


def config(**kwargs) -> RunConfig:
    return RunConfig("tai12a", problem="qap", backend="cpu", seed=4, **kwargs)


def is_local_optimum(problem, x) -> bool:
    F = prepare(problem, problem.neighborhood("swap"), "cpu").evaluate(x)
    return F.min() >= problem.evaluate(x)[0]


def test_hill_climbing_restarts_from_local_optima():
    result = solve(config(algorithm="hc", iterations=300))
    problem = build_search(config(algorithm="hc", iterations=1)).problem
    assert result.status == "completed" and result.iterations == 300
    assert result.starts > 2  # each climb ended at a local optimum, then a new start
    x = result.archive.X[np.argmin(result.archive.F[:, 0])]
    assert is_local_optimum(problem, x)
    np.testing.assert_array_equal(result.archive.F, problem.evaluate(result.archive.X))


def value_of(steps):
    """The value a search's generator of steps returns, once run to its end."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value


def test_a_climb_improves_at_every_step_up_to_a_local_optimum():
    search = build_search(config(algorithm="hc", iterations=100))
    x0, f0 = search._random_start()
    offered, add = [], search.archive.add
    search.archive.add = lambda F, X: (offered.append(int(F[0, 0])), add(F, X))[1]
    x, f, score = value_of(search._climb(x0, f0))
    costs = [int(f0[0]), *offered]
    assert len(costs) > 2 and all(b < a for a, b in itertools.pairwise(costs))
    assert costs[-1] == f[0] == score and search.iterations == len(offered) + 1  # the last evaluation proves it
    assert is_local_optimum(search.problem, x)


def test_iterated_local_search_keeps_one_walk_and_beats_its_first_climb():
    first = solve(config(algorithm="hc", iterations=1000))
    ils = solve(config(algorithm="ils", iterations=1000, strength=3))
    assert ils.status == "completed" and ils.iterations == 1000
    assert ils.starts == 1  # one random start; the rest are perturbations of the best local optimum
    problem = build_search(config(algorithm="ils", iterations=1)).problem
    assert is_local_optimum(problem, ils.archive.X[np.argmin(ils.archive.F[:, 0])])
    # 1,000 evaluations from one start come within 3 % of the optimum (224,416) on tai12a
    assert ils.archive.F.min() <= 1.03 * 224416
    assert solve(config(algorithm="ils", iterations=1000, strength=3)).archive.F.min() == ils.archive.F.min()
    assert first.starts > 1


@pytest.mark.parametrize("algorithm", ["tabu", "its", "hc", "ils", "pls"])
def test_a_reached_target_ends_the_run_and_says_when(algorithm):
    target = 1.15 * 224416
    result = solve(config(algorithm=algorithm, iterations=5000, target=target))
    assert result.status == "completed" and result.reached is not None
    assert result.archive.F.min() <= target and result.iterations < 5000
    assert result.reached.iteration == result.iterations and result.reached.value == target
    assert result.reached.seconds <= result.wall_seconds


def test_an_unreached_target_is_recorded_as_such():
    result = solve(config(algorithm="tabu", iterations=30, target=1000))
    assert result.iterations == 30 and result.target == 1000 and result.reached is None


def test_a_target_needs_one_objective():
    with pytest.raises(MolsError, match="^target: the mqap problem has 2 objectives"):
        build_search(RunConfig("KC10-2fl-1uni", problem="mqap", backend="cpu", target=0))


@pytest.mark.parametrize("kwargs, message", [
    ({"algorithm": "hc", "tenure": 3}, r"^algorithm hc does not take tenure"),
    ({"algorithm": "ils", "run_length": 9}, r"^algorithm ils does not take run_length"),
    ({"algorithm": "ils", "strength": 13}, r"^strength must be in 1..12"),
])
def test_climb_options_checked(kwargs, message):
    with pytest.raises(MolsError, match=message):
        build_search(config(iterations=10, **kwargs))
