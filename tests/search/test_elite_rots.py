"""Ro-TS's memory of the elite's walks (elite/rots.py): the choice by enumeration, the walk's table and admission
rule step by step, tenures redrawn, the long-term aspiration's forced swap, the tables carried between rounds."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.elite.rots import RotsMemory, RotsWalk, rots_choice
from mols.algorithms.tabu.steps import WalkLane
from mols.backends import prepare
from mols.neighborhoods.swap import swap_pairs
from mols.problems import load_problem
from mols.runner import RunConfig, build_search


def test_swap_pairs_are_the_neighborhood_ids():
    nbh = load_problem("qap", "tai12a").neighborhood("swap")
    pairs = swap_pairs(12)
    assert [nbh.index(int(i), int(j), 12) for i, j in pairs.T] == list(range(66))
    assert (pairs[0] < pairs[1]).all()


@pytest.mark.parametrize("n", [3, 6, 9])
def test_the_choice_is_the_lowest_admissible_by_enumeration(rng, n):
    pairs = swap_pairs(n)
    for trial in range(30):
        x = rng.permutation(n)
        left = rng.integers(-5, 10, size=(n, n)).astype(np.int32)
        F = rng.integers(0, 6, size=(pairs.shape[1], 1))  # ties
        recent, threshold = int(rng.integers(-2, 8)), float(rng.integers(0, 7))
        free = [left[x[j], i] <= recent or left[x[i], j] <= recent or F[t, 0] < threshold
                for t, (i, j) in enumerate(pairs.T)]
        ranked = sorted((F[t, 0], t) for t in range(len(free)) if free[t]) or sorted((F[t, 0], t) for t in range(len(F)))
        assert rots_choice(F, np.ones(1), left, x, pairs, recent, threshold) == (ranked[0][1], float(ranked[0][0]))


def test_a_walk_keeps_its_table_and_takes_only_admissible_or_aspired_swaps(rng):
    problem = load_problem("qap", "tai12a")
    ev, n, steps, every = prepare(problem, problem.neighborhood("swap"), "cpu"), 12, 120, 7
    x0 = problem.random_solution(rng)
    best = float(problem.evaluate_one(x0)[0])
    tenures = rng.integers(5, 14, -(-steps // every))
    left, at = np.full((n, n), -13, dtype=np.int32), np.zeros(n, dtype=np.int64)
    walk = RotsWalk(ev, WalkLane(x0, np.ones(1), best, steps), left, tenures, every, at)
    mine, x, threshold, pairs = np.full((n, n), -13), x0.copy(), best, swap_pairs(n)
    for step, (X, score, f) in enumerate(walk):
        (i, j), tenure = np.flatnonzero(X[0] != x), tenures[step // every]
        F = ev.evaluate(x)[:, 0]
        free = np.array([mine[x[b], a] <= step - tenure or mine[x[a], b] <= step - tenure for a, b in pairs.T])
        allowed = free | (F < threshold)
        assert score[0] == (F[allowed] if allowed.any() else F).min()
        assert f[0, 0] == score[0] == problem.evaluate_one(X[0])[0]
        mine[x[i], i] = mine[x[j], j] = step + 1
        x, threshold = X[0], min(threshold, score[0])
    np.testing.assert_array_equal(left, mine)
    np.testing.assert_array_equal(at, x)


def test_the_memory_carries_tables_between_rounds_and_forces_the_oldest_swap(rng):
    memory = RotsMemory(3, 5, (4, 6), period=30)
    assert memory.device == (12, 3) and (memory.left == -6).all()
    tenures = memory.draw(rng)
    assert tenures.shape == (3, 3) and tenures.min() >= 4 and tenures.max() <= 6
    memory.restart(1, np.array([4, 3, 2, 1, 0]))
    memory.left[1] = 0
    memory.left[1, 3, 0] = memory.left[1, 4, 1] = -50  # value 3 last at 0 and value 4 at 1: 50 steps ago
    memory.end_round(np.array([10, 20, 30]))
    assert memory.left[1].max() == -20 and memory.left[0].max() == -16
    assert memory.force([1], aspiration=70) == {}
    assert memory.force([1, 2], aspiration=40) == {1: (0, 1)}  # its values placed where they were 70 steps ago
    np.testing.assert_array_equal(memory.x[1], [3, 4, 2, 1, 0])
    assert memory.left[1, 4, 0] == memory.left[1, 3, 1] == 0  # they left at the next round's step 0: tabu


def test_the_default_memory_is_rots_for_swaps_and_moves_for_insertions():
    qap = build_search(RunConfig("tai12a", problem="qap", algorithm="elite", backend="cpu", iterations=100))
    flowshop = build_search(RunConfig("020_10_01", problem="flowshop", algorithm="elite", backend="cpu",
                                      iterations=100, objectives=("makespan",)))
    assert qap.rots is not None and flowshop.rots is None
