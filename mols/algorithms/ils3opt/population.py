"""Iterated local search with 3-opt for the TSP, a population of independent solutions (Numba; the CPU reference that
ils3opt.cu's strategies repeat exactly), first improvement or the paper's random-k best improvement (rkbi); the
iteration and its draws: docs/internals.md."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.algorithms.ils3opt.local_search import local_search, push
from mols.algorithms.ils3opt.three_opt import N_CASES, apply_case, case_delta, dist, reverse
from mols.jit import cached_njit
from mols.neighborhoods.draws import uniform
from mols.problems.tsp.candidates import city_grid, grid_cell

MAX_SEGMENT = 50  # double bridge: each moved segment has 1..MAX_SEGMENT cities (fewer on small instances)
RKBI_TAG = np.uint64(1 << 62)  # rkbi's draw ids start here: apart from the double bridges' (the iteration)


def max_segment(n: int) -> int:
    """Longest double-bridge segment for n cities: three segments and at least one other city."""
    return max(1, min(MAX_SEGMENT, (n - 1) // 3))


def positions(tours: np.ndarray) -> np.ndarray:
    """Each city's position in its tour: pos[s, tours[s, p]] = p, for tours (P, n)."""
    pos = np.empty_like(tours)
    pos[np.arange(tours.shape[0])[:, None], tours] = np.arange(tours.shape[1], dtype=tours.dtype)
    return pos


@cached_njit
def nearest_free(xy, c, used, left, first, order, x0, y0, cell, cols, rows):
    """The unvisited city nearest to city c (squared distance, ties by city index), ring by ring of city_grid's
    cells, skipping cells with no unvisited city (left: each cell's count)."""
    cx, cy = grid_cell(xy, c, x0, y0, cell, cols, rows)
    best, nxt, r = np.inf, -1, 0
    while True:
        for gy in range(max(cy - r, 0), min(cy + r, rows - 1) + 1):
            step = 1 if abs(gy - cy) == r else 2 * r  # the ring's cells only
            for gx in range(cx - r, cx + r + 1, step):
                g = gy * cols + gx
                if gx < 0 or gx >= cols or left[g] == 0:
                    continue
                for q in range(first[g], first[g + 1]):
                    j = order[q]
                    if not used[j]:
                        dx, dy = xy[c, 0] - xy[j, 0], xy[c, 1] - xy[j, 1]
                        d = dx * dx + dy * dy
                        if d < best or (d == best and j < nxt):
                            best, nxt = d, j
        # cities beyond ring r lie at least r cells away (a margin for the cells' rounding)
        if (nxt >= 0 and best < (r * cell * (1.0 - 1e-9)) ** 2) or r > cols + rows:
            return nxt
        r += 1


@cached_njit
def nearest_neighbor_tour(xy, cand, start, tour, used, left, first, order, x0, y0, cell, cols, rows):
    """Greedy tour from `start`: the first unvisited city of the current one's candidate list next, else the nearest
    unvisited one (nearest_free over city_grid's cells; left: a copy of their counts)."""
    n = tour.shape[0]
    used[:] = 0
    c = start
    for p in range(n):
        if p > 0:
            c = -1
            for q in range(cand.shape[1]):
                if not used[cand[tour[p - 1], q]]:
                    c = cand[tour[p - 1], q]
                    break
            if c < 0:
                c = nearest_free(xy, tour[p - 1], used, left, first, order, x0, y0, cell, cols, rows)
        tour[p], used[c] = c, 1
        gx, gy = grid_cell(xy, c, x0, y0, cell, cols, rows)
        left[gy * cols + gx] -= 1


@cached_njit(parallel=True)
def start_tours(xy, cand, seed, tours):
    """tours (P, n): solution s's nearest-neighbor tour from city floor(uniform((seed, s), 0, 0) n)."""
    P, n = tours.shape
    first, order, x0, y0, cell, cols, rows = city_grid(xy)
    counts = first[1:] - first[:-1]
    for s in prange(P):
        key = np.array([seed, s], dtype=np.uint64)
        used, left = np.empty(n, np.uint8), counts.copy()
        nearest_neighbor_tour(xy, cand, int(uniform(key, 0, 0) * n), tours[s], used, left, first, order, x0, y0,
                              cell, cols, rows)


@cached_njit(parallel=True)
def start_lengths(xy, tours, att):
    """The lengths (P,) of tours (P, n): model.tour_lengths' in Numba, over the cores (NumPy's fancy indexing
    was slow for thousands of large tours)."""
    P, n = tours.shape
    lengths = np.empty(P, np.int64)
    for s in prange(P):
        total = 0
        for p in range(n):
            total += dist(xy, tours[s, p], tours[s, p + 1 if p + 1 < n else 0], att)
        lengths[s] = total
    return lengths


@cached_njit
def double_bridge(xy, tour, pos, start, l1, l2, l3, ends, att, dirty=None):
    """Segments B, C, D of l1, l2, l3 cities after position `start` reconnected A D C B; their 8 end cities
    written to ends (8,). Returns the length change."""
    n = tour.shape[0]
    i = (start + 1) % n
    last = (start + l1 + l2 + l3) % n
    a, e = tour[start], tour[(last + 1) % n]
    b1, b2 = tour[i], tour[(start + l1) % n]
    c1, c2 = tour[(start + l1 + 1) % n], tour[(start + l1 + l2) % n]
    d1, d2 = tour[(start + l1 + l2 + 1) % n], tour[last]
    delta = (dist(xy, a, d1, att) + dist(xy, d2, c1, att) + dist(xy, c2, b1, att) + dist(xy, b2, e, att)
             - dist(xy, a, b1, att) - dist(xy, b2, c1, att) - dist(xy, c2, d1, att) - dist(xy, d2, e, att))
    reverse(tour, pos, i, last, dirty)  # D' C' B'
    reverse(tour, pos, i, (start + l3) % n, dirty)
    reverse(tour, pos, (start + l3 + 1) % n, (start + l3 + l2) % n, dirty)
    reverse(tour, pos, (start + l3 + l2 + 1) % n, last, dirty)
    ends[0], ends[1], ends[2], ends[3] = a, b1, b2, c1
    ends[4], ends[5], ends[6], ends[7] = c2, d1, d2, e
    return delta


@cached_njit
def perturb(xy, key, it, tour, pos, ends, seg, att, dirty=None, lo=0, width=0):
    """Iteration it's double bridge (its draws: id it, q 0..3) from a position in lo .. lo + width - 1 (width 0:
    anywhere); returns the length change."""
    n = tour.shape[0]
    start = lo + int(uniform(key, it, 0) * (width or n))
    l1 = 1 + int(uniform(key, it, 1) * seg)
    l2 = 1 + int(uniform(key, it, 2) * seg)
    l3 = 1 + int(uniform(key, it, 3) * seg)
    return double_bridge(xy, tour, pos, start, l1, l2, l3, ends, att, dirty)


@cached_njit
def sample_positions(key, idx, q, n):
    """rkbi's sample q of draw id idx: three distinct sorted positions (ok false where two draws coincide)."""
    p0 = int(uniform(key, idx, 3 * q) * n)
    p1 = int(uniform(key, idx, 3 * q + 1) * n)
    p2 = int(uniform(key, idx, 3 * q + 2) * n)
    if p0 > p1:
        p0, p1 = p1, p0
    if p1 > p2:
        p1, p2 = p2, p1
    if p0 > p1:
        p0, p1 = p1, p0
    return p0 < p1 < p2, p0, p1, p2


@cached_njit
def rkbi_id(it, step):
    """The draw id of rkbi's samples at LS step `step` of iteration it (apart from the double bridge's ids)."""
    return RKBI_TAG + np.uint64(it) * np.uint64(1 << 31) + np.uint64(step)


@cached_njit
def rkbi_best(xy, tour, key, idx, q_from, q_to, q_step, att):
    """The best of samples q_from, q_from + q_step, ... < q_to, each with its 7 reconnections: (delta, code =
    8 q + case), the first of the smallest deltas; (0, -1) where none improves."""
    n = tour.shape[0]
    best, code = 0, -1
    for q in range(q_from, q_to, q_step):
        ok, i, j, k = sample_positions(key, idx, q, n)
        if ok:
            for case in range(N_CASES):
                d = case_delta(xy, tour, i, j, k, case, att)
                if d < best:
                    best, code = d, 8 * q + case
    return best, code


@cached_njit
def rkbi_descent(xy, key, it, tour, pos, samples, att, dirty=None):
    """Random-k best improvement (the paper's RKBI): each step evaluates `samples` random triples of edges
    with every reconnection and takes the best improving one, until a step finds none. Returns the gain."""
    n, total, step = tour.shape[0], 0, 0
    while True:
        idx = rkbi_id(it, step)
        best, code = rkbi_best(xy, tour, key, idx, 0, samples, 1, att)
        if code < 0:
            return total
        _, i, j, k = sample_positions(key, idx, code // 8, n)
        apply_case(tour, pos, i, j, k, code % 8, dirty)
        total -= best
        step += 1


@cached_njit
def first_descent(xy, cand, tour, pos, queue, queued, att, oropt=False):
    """3-opt (and Or-opt where `oropt`) local optimum of the tour, every city queued in index order; returns the
    gain."""
    n = tour.shape[0]
    for c in range(n):
        pos[tour[c]] = c
        queue[c] = c
        queued[c] = 1
    return local_search(xy, cand, tour, pos, queue, queued, n, att, None, oropt)


@cached_njit
def descend(xy, cand, key, it, tour, pos, queue, queued, ends, first, samples, att, dirty=None, oropt=False):
    """The local search of iteration it: first improvement with don't-look bits (samples 0; every city
    queued where `first`, else the double bridge's 8 ends), or rkbi with `samples` samples. Returns the gain."""
    n = tour.shape[0]
    if samples > 0:
        if first:
            for c in range(n):
                pos[tour[c]] = c
        return rkbi_descent(xy, key, it, tour, pos, samples, att, dirty)
    if first:
        return first_descent(xy, cand, tour, pos, queue, queued, att, oropt)
    count = 0
    for c in ends:
        count = push(queue, queued, 0, count, c)
    return local_search(xy, cand, tour, pos, queue, queued, count, att, dirty, oropt)


@cached_njit
def copy_range(dst, dst_pos, src, lo, hi):
    """dst[p] = src[p] and dst_pos[src[p]] = p for the positions p = lo .. hi (none where lo > hi)."""
    for p in range(lo, hi + 1):
        dst[p] = src[p]
        dst_pos[src[p]] = p


@cached_njit
def window_start(key, it_from, n, window, seg):
    """A merged round's window (ils_merge): the first of its `window` double-bridge start positions, drawn once a
    round (id it_from, q 4) so that every position a double bridge writes lies in 1 .. n - 2."""
    return int(uniform(key, it_from, 4) * (n - window - 3 * seg - 1))


@cached_njit
def changed_range(tour, best, lo, hi):
    """lo .. hi narrowed to the first and last positions where tour and best differ (lo > hi: none)."""
    while lo <= hi and tour[lo] == best[lo]:
        lo += 1
    while hi >= lo and tour[hi] == best[hi]:
        hi -= 1
    return lo, hi


@cached_njit
def ils_solution(xy, cand, key, tour, pos, best, best_pos, queue, queued, length, it_from, it_to, seg, samples,
                 att, window, span, oropt=False):
    """Iterations it_from .. it_to - 1 of one solution (iteration 0: its first descent). length (1,) holds
    the best tour's length (iteration 0 sets it from the start tour's). samples: 0 first improvement (with Or-opt
    moves where `oropt`), else rkbi.
    Between iterations tour == best and pos == best_pos, so each copies only the positions it wrote (dirty).
    window > 0: a merged round (ils_merge): every double bridge starts in the round's window, and span (2,) is
    widened by the positions where each kept tour differs from the best before it."""
    n = tour.shape[0]
    ends = np.empty(8, np.int64)
    dirty = np.empty(2, np.int64)
    lo = window_start(key, it_from, n, window, seg) if window else 0
    for it in range(it_from, it_to):
        dirty[0], dirty[1] = n, -1
        delta = 0 if it == 0 else perturb(xy, key, it, tour, pos, ends, seg, att, dirty, lo, window)
        current = length[0] + delta - descend(xy, cand, key, it, tour, pos, queue, queued, ends, it == 0, samples,
                                              att, dirty, oropt)
        if it == 0:  # best and best_pos not set yet: the whole tour
            dirty[0], dirty[1] = 0, n - 1
        if current <= length[0]:
            length[0] = current
            if window and it > 0:
                dirty[0], dirty[1] = changed_range(tour, best, dirty[0], dirty[1])
                if dirty[0] <= dirty[1]:
                    span[0], span[1] = min(span[0], dirty[0]), max(span[1], dirty[1])
            copy_range(best, best_pos, tour, dirty[0], dirty[1])
        else:
            copy_range(tour, pos, best, dirty[0], dirty[1])


@cached_njit(parallel=True)
def ils_population(xy, cand, seed, tours, pos, bests, best_pos, queues, queued, lengths, it_from, it_to, seg,
                   samples, att, window, spans, oropt=False):
    """ils_solution for every solution s of the population (arrays (P, n), lengths (P, 1), spans (P, 2)), in
    parallel."""
    for s in prange(tours.shape[0]):
        key = np.array([seed, s], dtype=np.uint64)
        ils_solution(xy, cand, key, tours[s], pos[s], bests[s], best_pos[s], queues[s], queued[s], lengths[s],
                     it_from, it_to, seg, samples, att, window, spans[s], oropt)
