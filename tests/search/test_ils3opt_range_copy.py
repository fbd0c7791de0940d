"""ILS-3opt's keep and restore copy only the positions an iteration's reversals wrote (ils3opt.ils_solution's
dirty range): the tours, positions and lengths equal those of a plain loop over the same building blocks that
copies whole arrays, on random instances (small ones, where reversals wrap around the array end, too), kroA100
and rkbi, through several chunks of iterations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.ils3opt.population import descend, ils_solution, max_segment, perturb, start_tours
from mols.algorithms.ils3opt.three_opt import candidate_table, tour_length
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists

SEED = 11


def full_copy_run(xy, cand, key, tour, length, iterations, seg, samples, att):
    """ILS with whole copies: (best tour, its positions, its length, accepts after iteration 0, restores)."""
    n = tour.shape[0]
    tour, pos = tour.copy(), np.empty(n, tour.dtype)
    queue, queued, ends = np.empty(n, tour.dtype), np.zeros(n, np.uint8), np.empty(8, np.int64)
    best = best_pos = None
    accepts = restores = 0
    for it in range(iterations):
        delta = 0 if it == 0 else perturb(xy, key, it, tour, pos, ends, seg, att)
        current = length + delta - descend(xy, cand, key, it, tour, pos, queue, queued, ends, it == 0, samples, att)
        if current <= length:
            length, best, best_pos = current, tour.copy(), pos.copy()
            accepts += it > 0
        else:
            tour[:], pos[:] = best, best_pos
            restores += 1
    return best, best_pos, length, accepts, restores


def range_copy_run(xy, cand, key, tour, length, chunks, seg, samples, att):
    """ils_solution through the iteration boundaries `chunks`: (tour, pos, best, best_pos, length)."""
    n = tour.shape[0]
    tour = tour.copy()
    pos, best, best_pos, queue = (np.empty(n, tour.dtype) for _ in range(4))
    queued, lengths = np.zeros(n, np.uint8), np.array([length], np.int64)
    for a, b in itertools.pairwise(chunks):
        ils_solution(xy, cand, key, tour, pos, best, best_pos, queue, queued, lengths, a, b, seg, samples, att, 0,
                     np.empty(2, np.int64))
    return tour, pos, best, best_pos, int(lengths[0])


@pytest.mark.parametrize("instance, iterations, samples", [
    ("random:16:3", 120, 0), ("random:30:4", 150, 0), ("random:80:6", 200, 0), ("kroA100", 300, 0),
    ("random:40:2", 60, 100),
])
def test_range_copy_equals_full_copy(instance, iterations, samples):
    problem = load_tsp(instance)
    xy, n, att = problem.xy[0], problem.n, problem.att
    cand, seg = candidate_lists(xy), max_segment(n)
    starts = np.empty((3, n), np.int32)
    start_tours(xy, cand, np.uint64(SEED), starts)
    table = candidate_table(xy, cand, att)
    for s, start in enumerate(starts):
        key = np.array([SEED, s], np.uint64)
        length = tour_length(xy, start, att)
        want, want_pos, want_length, accepts, restores = full_copy_run(xy, table, key, start, length, iterations, seg,
                                                                       samples, att)
        assert accepts > 0 and restores > 0  # both copies are exercised
        tour, pos, best, best_pos, got_length = range_copy_run(xy, table, key, start, length,
                                                               [0, 1, 7, iterations // 2, iterations], seg, samples,
                                                               att)
        assert got_length == want_length == tour_length(xy, best, att)
        np.testing.assert_array_equal(best, want)
        np.testing.assert_array_equal(best_pos, want_pos)
        np.testing.assert_array_equal(tour, best)  # after an iteration the current tour is the best one
        np.testing.assert_array_equal(pos, best_pos)
        np.testing.assert_array_equal(pos[best], np.arange(n))  # pos is the tour's inverse
