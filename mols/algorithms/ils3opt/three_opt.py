"""3-opt for the TSP (Numba; ils3opt.cu is its CUDA twin): the tour as an array with position lookup; the
reconnection cases (`case_delta`, the tests' reference) and the sequential search from a city (`improve_city`),
each move at most three `flip`s (docs/internals.md)."""

from __future__ import annotations

import numpy as np

from mols.jit import cached_njit
from mols.problems.tsp.moves import distance

# Reconnections of the segments S1 = b..c and S2 = d..e between a and f (case: new order from a to f):
# 0 a c..b d..e f   1 a b..c e..d f   2 a e..d c..b f       (2-opt: one reversal, one edge kept)
# 3 a c..b e..d f   4 a d..e b..c f   5 a d..e c..b f   6 a e..d b..c f   (3-opt; 4 is the pure one)
N_CASES = 7


@cached_njit(inline="always")
def dist(xy, a, b, att):
    return distance(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], att)


@cached_njit(inline="always")
def succ(tour, pos, c):
    p = pos[c] + 1
    return tour[0 if p == tour.shape[0] else p]


@cached_njit(inline="always")
def pred(tour, pos, c):
    p = pos[c]
    return tour[tour.shape[0] - 1 if p == 0 else p - 1]


@cached_njit(inline="always")
def step(tour, pos, c, fwd):
    """The city after c in the direction of the search (fwd: along the array)."""
    return succ(tour, pos, c) if fwd else pred(tour, pos, c)


@cached_njit(inline="always")
def between(pos, a, b, c, fwd):
    """Whether b lies on the path from a to c (both included) in direction fwd."""
    if not fwd:
        a, c = c, a
    pa, pb, pc = pos[a], pos[b], pos[c]
    if pa <= pc:
        return pa <= pb <= pc
    return pb >= pa or pb <= pc


@cached_njit(inline="always")
def widen(dirty, i, j, n):
    """Widen the position range dirty = [lo, hi] by i .. j: to the whole tour where i .. j wraps (i > j)."""
    if i > j:
        dirty[0], dirty[1] = 0, n - 1
    else:
        dirty[0], dirty[1] = min(dirty[0], i), max(dirty[1], j)


@cached_njit
def reverse(tour, pos, i, j, dirty=None):
    """Reverse the cities at positions i .. j (forward, around the cycle); dirty (if given) widened by them."""
    n = tour.shape[0]
    if dirty is not None:
        widen(dirty, i, j, n)
    length = j - i + (n if j < i else 0) + 1
    for _ in range(length // 2):
        a, b = tour[i], tour[j]
        tour[i], pos[b] = b, i
        tour[j], pos[a] = a, j
        i = i + 1 if i + 1 < n else 0
        j = j - 1 if j > 0 else n - 1


@cached_njit
def flip(tour, pos, a, b, c, d, dirty=None):
    """Replace tour edges {a,b} and {c,d} (b after a and d after c, in one direction) by {a,c} and {b,d}."""
    n = tour.shape[0]
    if succ(tour, pos, a) != b:
        a, b, c, d = b, a, d, c
    inner = pos[c] - pos[b] + (n if pos[c] < pos[b] else 0) + 1  # cities b .. c
    if 2 * inner <= n:
        reverse(tour, pos, pos[b], pos[c], dirty)
    else:
        reverse(tour, pos, pos[d], pos[a], dirty)


@cached_njit
def case_delta(xy, tour, i, j, k, case, att):
    """Length change of reconnection `case` of the edges after positions i < j < k (O(1))."""
    n = tour.shape[0]
    a, b, c, d = tour[i], tour[i + 1], tour[j], tour[j + 1]
    e, f = tour[k], tour[(k + 1) % n]
    removed = dist(xy, a, b, att) + dist(xy, c, d, att) + dist(xy, e, f, att)
    if case == 0:
        return dist(xy, a, c, att) + dist(xy, b, d, att) - dist(xy, a, b, att) - dist(xy, c, d, att)
    if case == 1:
        return dist(xy, c, e, att) + dist(xy, d, f, att) - dist(xy, c, d, att) - dist(xy, e, f, att)
    if case == 2:
        return dist(xy, a, e, att) + dist(xy, b, f, att) - dist(xy, a, b, att) - dist(xy, e, f, att)
    if case == 3:
        added = dist(xy, a, c, att) + dist(xy, b, e, att) + dist(xy, d, f, att)
    elif case == 4:
        added = dist(xy, a, d, att) + dist(xy, e, b, att) + dist(xy, c, f, att)
    elif case == 5:
        added = dist(xy, a, d, att) + dist(xy, e, c, att) + dist(xy, b, f, att)
    else:
        added = dist(xy, a, e, att) + dist(xy, d, b, att) + dist(xy, c, f, att)
    return added - removed


@cached_njit
def apply_case(tour, pos, i, j, k, case, dirty=None):
    """Carry out reconnection `case` (case_delta's) as flips."""
    n = tour.shape[0]
    a, b, c, d = tour[i], tour[i + 1], tour[j], tour[j + 1]
    e, f = tour[k], tour[(k + 1) % n]
    if case == 0:
        flip(tour, pos, a, b, c, d, dirty)
    elif case == 1:
        flip(tour, pos, c, d, e, f, dirty)
    elif case == 2:
        flip(tour, pos, a, b, e, f, dirty)
    elif case == 3:
        flip(tour, pos, a, b, c, d, dirty)
        flip(tour, pos, b, d, e, f, dirty)
    else:
        flip(tour, pos, a, b, e, f, dirty)  # a e..d c..b f
        if case == 6:
            flip(tour, pos, d, c, b, f, dirty)
        else:
            flip(tour, pos, a, e, d, c, dirty)  # a d..e c..b f
            if case == 4:
                flip(tour, pos, e, c, b, f, dirty)


@cached_njit
def valid_close(tour, pos, t1, t2, t3, t4, t5, t6, fwd):
    """Whether removing (t5,t6) and adding (t6,t1) closes the partial move t1..t5 into a tour; t4 is t3's
    successor or predecessor, t6 t5's, in direction fwd (where t2 follows t1)."""
    t4_after = t4 == step(tour, pos, t3, fwd)
    t6_after = t6 == step(tour, pos, t5, fwd)
    if t4_after:  # (t2,t3) closed t2..t3 into a cycle: t5 must break it
        return between(pos, t2, t5, t3, fwd) and (t5 != t3 if t6_after else t5 != t2)
    if t6_after:
        return between(pos, t2, t5, t4, fwd) and t5 != t4
    return between(pos, t3, t5, t1, fwd) and t5 != t3 and t5 != t1


@cached_njit
def apply_sequential(tour, pos, t1, t2, t3, t4, t5, t6, fwd, dirty=None):
    """Carry out the sequential move (t5 < 0: the 2-opt t1..t4) as flips."""
    if t4 != step(tour, pos, t3, fwd):
        flip(tour, pos, t1, t2, t4, t3, dirty)
        if t5 >= 0:
            flip(tour, pos, t1, t4, t6, t5, dirty)
    elif t6 == step(tour, pos, t5, fwd):  # pure: t6..t3 moved between t1 and t2, orientation kept
        flip(tour, pos, t1, t2, t3, t4, dirty)
        flip(tour, pos, t1, t3, t6, t5, dirty)
        flip(tour, pos, t3, t5, t2, t4, dirty)
    else:
        flip(tour, pos, t1, t2, t6, t5, dirty)
        flip(tour, pos, t2, t5, t3, t4, dirty)


@cached_njit
def improve_city(xy, cand, tour, pos, t1, att, touched, dirty=None):
    """First improving sequential 3-opt move from t1 (directions forward then backward, candidates in
    list order, t4 before, then after t3, t6 after, then before t5), carried out. Its end cities go to
    touched; returns (their count: 0 where there is none, 4 for a 2-opt, 6, gain). cand: candidate_table's."""
    k = cand.shape[1]
    for direction in range(2):
        fwd = direction == 0
        t2 = step(tour, pos, t1, fwd)
        d12 = dist(xy, t1, t2, att)
        for a in range(k):
            t3 = cand[t2, a, 0]
            g1 = d12 - cand[t2, a, 1]
            if g1 <= 0:
                break
            if t3 == step(tour, pos, t2, fwd):
                continue
            found, t4, t5, t6, gain = search_t3(xy, cand, tour, pos, t1, t2, t3, g1, fwd, att)
            if found:
                apply_sequential(tour, pos, t1, t2, t3, t4, t5, t6, fwd, dirty)
                touched[0], touched[1], touched[2], touched[3] = t1, t2, t3, t4
                if t5 < 0:
                    return 4, gain
                touched[4], touched[5] = t5, t6
                return 6, gain
    return 0, 0


@cached_njit
def search_t3(xy, cand, tour, pos, t1, t2, t3, g1, fwd, att):
    """The first improving completion of t1, t2, t3: (found, t4, t5 (-1: a 2-opt), t6, gain)."""
    k = cand.shape[1]
    for which in range(2):
        t4 = step(tour, pos, t3, not fwd) if which == 0 else step(tour, pos, t3, fwd)
        g1b = g1 + dist(xy, t3, t4, att)
        if which == 0:
            gain = g1b - dist(xy, t4, t1, att)
            if gain > 0:
                return True, t4, -1, -1, gain
        for b in range(k):
            t5 = cand[t4, b, 0]
            g2 = g1b - cand[t4, b, 1]
            if g2 <= 0:
                break
            if t5 == succ(tour, pos, t4) or t5 == pred(tour, pos, t4):
                continue
            for w in range(2):
                t6 = step(tour, pos, t5, fwd) if w == 0 else step(tour, pos, t5, not fwd)
                if valid_close(tour, pos, t1, t2, t3, t4, t5, t6, fwd):
                    gain = g2 + dist(xy, t5, t6, att) - dist(xy, t6, t1, att)
                    if gain > 0:
                        return True, t4, t5, t6, gain
    return False, -1, -1, -1, 0


def candidate_table(xy: np.ndarray, cand: np.ndarray, att: bool) -> np.ndarray:
    """The local searches' candidate lists (n, k, 2) int32 (both backends'): each candidate of city i in list order,
    beside its distance from i, so that a scan's partial gains read it instead of computing it."""
    return _table(np.ascontiguousarray(xy, np.float64), np.ascontiguousarray(cand, np.int64), bool(att))


@cached_njit
def _table(xy, cand, att):
    n, k = cand.shape
    table = np.empty((n, k, 2), np.int32)
    for i in range(n):
        for a in range(k):
            table[i, a, 0], table[i, a, 1] = cand[i, a], dist(xy, i, cand[i, a], att)
    return table


def tour_length(xy: np.ndarray, tour: np.ndarray, att: bool) -> int:
    """Reference length of one tour (NumPy)."""
    from mols.problems.tsp.model import tour_lengths

    return int(tour_lengths(xy, tour[None], att)[0])
