"""Or-opt for the TSP: every move's O(1) delta against full tour lengths and its flips against an edge-set oracle, by
enumeration on small tours; the search's first move against the enumeration; a descent with Or-opt moves ends at a
3-opt and Or-opt local optimum."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.ils3opt.local_search import local_search
from mols.algorithms.ils3opt.or_opt import OR_MAX, apply_or, or_delta, or_move
from mols.algorithms.ils3opt.three_opt import candidate_table, dist, improve_city, step, tour_length
from mols.problems.tsp.candidates import candidate_lists
from tests.problems.test_three_opt import consistent, edges, random_cities, random_tour


def or_moves(tour, pos):
    """Every Or-opt move or_move may make, in any order: (p, t1, s_end, q, c, d, fwd)."""
    n = len(tour)
    for t1 in range(n):
        for fwd in (True, False):
            p, segment = step(tour, pos, t1, not fwd), [t1]
            for _ in range(OR_MAX):
                q = step(tour, pos, segment[-1], fwd)
                for c in set(range(n)) - {p, q, *segment}:
                    for d in (step(tour, pos, c, fwd), step(tour, pos, c, not fwd)):
                        if d not in (p, q):
                            yield p, t1, segment[-1], q, c, d, fwd
                segment.append(q)


@pytest.mark.parametrize("att", [False, True])
def test_every_or_move_is_its_delta_and_its_edges(rng, att):
    moves = 0
    for _ in range(8):
        n = int(rng.integers(8, 12))
        xy = random_cities(rng, n, 1000)
        tour, pos = random_tour(rng, n)
        length, old = tour_length(xy, tour, att), edges(tour)
        for p, t1, s_end, q, c, d, fwd in or_moves(tour, pos):
            removed = {frozenset((p, t1)), frozenset((s_end, q)), frozenset((c, d))}
            added = {frozenset((p, q)), frozenset((c, t1)), frozenset((s_end, d))}
            t, ps = tour.copy(), pos.copy()
            apply_or(t, ps, np.array([p, t1, s_end, q, c, d], np.int64), fwd)
            assert consistent(t, ps) and edges(t) == (old - removed) | added, (p, t1, s_end, q, c, d, fwd)
            assert tour_length(xy, t, att) - length == or_delta(xy, p, t1, s_end, q, c, d, att)
            moves += 1
    assert moves > 3000


def test_or_move_finds_an_improving_move_where_one_passes_its_bound(rng):
    """With full, sorted candidate lists the scan's stop (d(t1, c) at least the removal's gain) skips only moves
    that cannot pass it: or_move finds a move from t1 exactly where the enumeration has one that does, and its
    gain is the length change."""
    move, found_some = np.empty(6, np.int64), 0
    for _ in range(30):
        n = int(rng.integers(8, 30))
        xy = random_cities(rng, n, 1000)
        cand = candidate_table(xy, candidate_lists(xy, n - 1), False)
        tour, pos = random_tour(rng, n)
        for t1 in range(n):
            exists = any(m[1] == t1 and or_delta(xy, *m[:6], False) < 0 and dist(xy, m[1], m[4], False) <
                         dist(xy, m[0], m[1], False) + dist(xy, m[2], m[3], False) - dist(xy, m[0], m[3], False)
                         for m in or_moves(tour, pos))
            found, fwd, gain = or_move(xy, cand, tour, pos, t1, False, move)
            assert found == exists
            if found:
                found_some += 1
                t, ps, before = tour.copy(), pos.copy(), tour_length(xy, tour, False)
                apply_or(t, ps, move, fwd)
                assert consistent(t, ps) and before - tour_length(xy, t, False) == gain > 0
    assert found_some > 50


def test_local_search_with_or_opt_ends_at_a_local_optimum(rng):
    touched, move = np.empty(6, np.int64), np.empty(6, np.int64)
    for _ in range(5):
        n = 150
        xy = random_cities(rng, n, 10_000)
        cand = candidate_table(xy, candidate_lists(xy, 10), False)
        tour, pos = random_tour(rng, n)
        queue, queued = np.arange(n, dtype=np.int32), np.ones(n, np.uint8)
        before = tour_length(xy, tour, False)
        gain = local_search(xy, cand, tour, pos, queue, queued, n, False, None, True)
        assert consistent(tour, pos) and before - tour_length(xy, tour, False) == gain and not queued.any()
        for t1 in range(n):
            assert improve_city(xy, cand, tour.copy(), pos.copy(), t1, False, touched)[0] == 0
            assert not or_move(xy, cand, tour, pos, t1, False, move)[0]
