"""TSP model: every swap and 2-opt delta equals full re-evaluation; state, dtypes, supported neighborhoods."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import prepare
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.tsp.instance import TspInstance, TspPair, random_instance
from mols.problems.tsp.model import Tsp, distance_matrix


def random_tsp(rng, n, kind="EUC_2D", side=1000.0, k=1):
    """k coordinate sets of n cities, with float coordinates (and a few repeated cities: zero distances)."""
    parts = []
    for o in range(k):
        xy = rng.uniform(0, side, size=(n, 2))
        xy[rng.integers(0, n)] = xy[0]
        parts.append(TspInstance(f"r{o}", xy, kind))
    return Tsp(parts[0] if k == 1 else TspPair("pair", tuple(parts)))


@pytest.mark.parametrize("name", ["swap", "2opt", "3exchange"])
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 11, 30])
@pytest.mark.parametrize("kind, k", [("EUC_2D", 1), ("ATT", 1), ("EUC_2D", 2)])
def test_deltas_equal_full_evaluation_for_every_move(rng, name, n, kind, k):
    problem, nbh = random_tsp(rng, n, kind, k=k), NEIGHBORHOODS[name]
    evaluator = prepare(problem, nbh, "cpu")
    for _ in range(3):
        x = problem.random_solution(rng)
        F = evaluator.evaluate(x)
        assert F.shape == (nbh.n_neighbors(n), k) and F.dtype == problem.dtype
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


def test_evaluate_one_equals_evaluate(rng):
    problem = random_tsp(rng, 40, k=2)
    X = np.array([problem.random_solution(rng) for _ in range(5)])
    np.testing.assert_array_equal([problem.evaluate_one(x) for x in X], problem.evaluate(X))


def test_dtype_grows_with_the_tour_bound(rng):
    assert random_tsp(rng, 50).dtype == np.int32
    big = random_tsp(rng, 50, side=1e8)
    assert big.dtype == np.int64
    evaluator = prepare(big, NEIGHBORHOODS["2opt"], "cpu")
    x = big.random_solution(rng)
    F = evaluator.evaluate(x)
    assert F.max() > np.iinfo(np.int32).max
    np.testing.assert_array_equal(F, big.evaluate(NEIGHBORHOODS["2opt"].apply_many(x, np.arange(len(F)))))


def test_neighborhoods_a_problem_does_not_support_are_refused():
    problem = Tsp(random_instance(10, 0))
    with pytest.raises(MolsError, match="the tsp problem does not support the insertion neighborhood"):
        prepare(problem, NEIGHBORHOODS["insertion"], "cpu")
    with pytest.raises(MolsError, match="the flowshop problem does not support the 2opt neighborhood"):
        prepare(load_problem("flowshop", "020_05_01"), NEIGHBORHOODS["2opt"], "cpu")


def test_att_instance_loads():
    problem = load_problem("tsp", "att532")
    assert problem.att and problem.n == 532
    assert problem.evaluate(np.arange(532))[0] > 27686  # above the optimum


@pytest.mark.parametrize("name", ["kroA100", "att532"])
def test_the_distance_matrix_sums_to_the_tour_lengths(name, rng):
    """The matrix given to solvers that take one (mols bench peers) measures tours as mols does, EUC_2D and ATT."""
    problem = load_problem("tsp", name)
    D = distance_matrix(problem.xy[0], problem.att)
    assert np.array_equal(D, D.T) and not D.diagonal().any()
    for _ in range(5):
        tour = rng.permutation(problem.n)
        assert D[tour, np.roll(tour, -1)].sum() == problem.evaluate(tour)[0]
