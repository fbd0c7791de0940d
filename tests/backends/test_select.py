"""The host selection of the best admissible neighbor (the twin of select.cu), by brute force."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.select import best_admissible, weighted_scores
from mols.algorithms.tabu.selection import selection_for
from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance


def reference(F, c, forbidden_until, step, threshold):
    """Lowest score among admissible rows, ties to the lowest id; the best of all if none is admissible."""
    s = weighted_scores(F, c)
    admissible = (forbidden_until <= step) | (s < threshold)
    pool = np.flatnonzero(admissible) if admissible.any() else np.arange(len(F))
    best = pool[np.argmin(s[pool])]  # argmin takes the first of equal minima, and pool is sorted
    return int(best), float(s[best])


def test_weighted_scores_is_the_dot_product():
    F = np.array([[1, 2, 3], [0, 0, 1], [4, 0, 0]])
    np.testing.assert_array_equal(weighted_scores(F, np.array([1.0, 10.0, 100.0])), [321.0, 100.0, 4.0])


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_best_admissible_equals_brute_force(rng, k, dtype):
    for trial in range(300):
        N = int(rng.integers(1, 30))
        F = rng.integers(0, 4, size=(N, k)).astype(dtype)  # small values: many equal scores
        c = rng.choice([0.0, 0.0, 0.5, 1.0, 0.37, 2.0], size=k)  # zeros make even more ties
        if trial % 5 == 0:
            c = rng.random(k)  # general floating-point weights
        step = int(rng.integers(0, 10))
        forbidden_until = np.where(rng.random(N) < rng.random(), rng.integers(0, 20, size=N), 0).astype(np.int64)
        if trial % 7 == 0:
            forbidden_until[:] = step + 1  # everything tabu
        scores = weighted_scores(F, c)
        for threshold in (-np.inf, np.inf, float(rng.choice(scores)), float(np.median(scores)) + 0.25):
            got = best_admissible(F, c, forbidden_until, step, threshold)
            assert (int(got[0]), float(got[1])) == reference(F, c, forbidden_until, step, threshold)


def test_ties_go_to_the_lowest_id_and_blocks_expire_at_their_step():
    F = np.array([[2, 0], [1, 5], [1, 9], [1, 0], [3, 3]])
    c = np.array([1.0, 0.0])  # scores 2, 1, 1, 1, 3
    unblocked = np.zeros(5, dtype=np.int64)
    assert best_admissible(F, c, unblocked, 0, -np.inf) == (1, 1.0)
    blocked = np.array([0, 4, 0, 0, 0], dtype=np.int64)
    assert best_admissible(F, c, blocked, 3, -np.inf) == (2, 1.0)  # id 1 tabu at steps < 4
    assert best_admissible(F, c, blocked, 4, -np.inf) == (1, 1.0)  # and admissible from step 4
    assert best_admissible(F, c, blocked, 3, 1.5) == (1, 1.0)  # aspiration: 1 < 1.5
    assert best_admissible(F, c, blocked, 3, 1.0) == (2, 1.0)  # not below the threshold: still tabu
    everything = np.full(5, 9, dtype=np.int64)
    assert best_admissible(F, c, everything, 3, -np.inf) == (1, 1.0)  # none admissible: best of all


@pytest.fixture
def tiny():
    pb = Flowshop(random_instance(np.random.default_rng(5), 7, 3))
    return pb, NEIGHBORHOODS["insertion"]


def test_cpu_selection_returns_the_row_of_its_id(rng, tiny):
    pb, nbh = tiny
    ev = prepare(pb, nbh, "cpu")
    selection = selection_for(ev)  # tabu search's, on the host
    for _ in range(5):
        x = pb.random_solution(rng)
        c = rng.random(pb.n_obj)
        idx, score, f = selection(x, c, 0, -np.inf)
        F = pb.evaluate(nbh.apply_many(x, np.arange(nbh.n_neighbors(pb.n))))
        np.testing.assert_array_equal(f, F[idx])
        np.testing.assert_array_equal(f, ev.evaluate(x)[idx])
        assert (idx, score) == reference(F, c, np.zeros(len(F), dtype=np.int64), 0, -np.inf)


def test_cpu_blocking_the_best_gives_the_next_best_unless_aspiration(rng, tiny):
    pb, nbh = tiny
    ev = prepare(pb, nbh, "cpu")
    selection = selection_for(ev)  # tabu search's, on the host
    x = pb.random_solution(rng)
    c = np.array([1.0, 0.1, 3.0])
    scores = weighted_scores(ev.evaluate(x).copy(), c)
    order = np.lexsort((np.arange(len(scores)), scores))  # by score, then id
    first, second = int(order[0]), int(order[1])
    assert selection(x, c, 0, -np.inf)[0] == first
    selection.forbid(first, 5)
    assert selection(x, c, 4, -np.inf)[0] == second
    assert selection(x, c, 4, scores[first])[0] == second  # not strictly below the threshold
    if scores[first] < scores[second]:
        assert selection(x, c, 4, scores[second])[0] == first  # aspiration
    assert selection(x, c, 5, -np.inf)[0] == first  # the block has expired
    selection.allow_all()
    assert selection(x, c, 0, -np.inf)[0] == first


def test_cpu_selection_on_a_bundled_instance(rng):
    pb, nbh = load_problem("flowshop", "020_05_01"), NEIGHBORHOODS["swap"]
    ev = prepare(pb, nbh, "cpu")
    selection = selection_for(ev)  # tabu search's, on the host
    x = pb.random_solution(rng)
    c = np.array([1.0, 0.0, 0.0])  # makespan alone: many ties
    blocked = rng.choice(nbh.n_neighbors(pb.n), size=40, replace=False)
    for t in blocked:
        selection.forbid(int(t), 10)
    idx, score, f = selection(x, c, 3, -np.inf)
    F = ev.evaluate(x).copy()
    until = np.zeros(len(F), dtype=np.int64)
    until[blocked] = 10
    assert (idx, score) == reference(F, c, until, 3, -np.inf)
    np.testing.assert_array_equal(f, F[idx])
