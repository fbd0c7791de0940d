"""Iterated local search with 3-opt for the TSP, a population of independent solutions (Numba; the CPU
reference that ils3opt.cu's strategies repeat exactly).

Solution s of the population: a nearest-neighbor tour from a random city, brought to a 3-opt local
optimum (three_opt.local_search, every city queued), then iterations 1, 2, ...: a double bridge on the
best tour (segments B, C, D after a random position, each of 1..max_segment cities, reconnected A D C B:
a non-sequential 4-opt move that 3-opt does not undo), 3-opt from its 8 end cities (don't-look bits
off for them only), and the result kept if not longer, else the best tour restored. (The paper keeps only
a shorter tour; accepting equal ones lets the walk cross plateaus: on lin318, one solution on 1 core reached
the optimum in 3.8 s this way, and stayed 0.27 % above it after 30 s with strict acceptance.)

Every random number is drawn from a counter (draws.uniform, key (seed, s), id = the iteration), so a
run repeats exactly on every backend and in any chunking of its iterations.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from mols.neighborhoods.draws import uniform
from mols.problems.tsp.three_opt import dist, local_search, push, reverse

MAX_SEGMENT = 50  # double bridge: each moved segment has 1..MAX_SEGMENT cities (fewer on small instances)


def max_segment(n: int) -> int:
    """Longest double-bridge segment for n cities: three segments and at least one other city."""
    return max(1, min(MAX_SEGMENT, (n - 1) // 3))


@njit(cache=True)
def nearest_neighbor_tour(xy, cand, start, tour, used):
    """Greedy tour from `start`: the nearest unvisited city next (from the candidate list, else a scan;
    ties by city index, as the lists)."""
    n = tour.shape[0]
    used[:] = 0
    c = start
    tour[0], used[c] = c, 1
    for p in range(1, n):
        nxt = -1
        for q in range(cand.shape[1]):
            if not used[cand[c, q]]:
                nxt = cand[c, q]
                break
        if nxt < 0:
            best = np.inf
            for j in range(n):
                if not used[j]:
                    dx, dy = xy[c, 0] - xy[j, 0], xy[c, 1] - xy[j, 1]
                    d = dx * dx + dy * dy
                    if d < best:
                        best, nxt = d, j
        tour[p], used[nxt] = nxt, 1
        c = nxt


@njit(cache=True, parallel=True)
def start_tours(xy, cand, seed, tours):
    """tours (P, n): solution s's nearest-neighbor tour from city floor(uniform((seed, s), 0, 0) n)."""
    P, n = tours.shape
    for s in prange(P):
        key = np.array([seed, s], dtype=np.uint64)
        used = np.empty(n, np.uint8)
        nearest_neighbor_tour(xy, cand, int(uniform(key, 0, 0) * n), tours[s], used)


@njit(cache=True)
def double_bridge(xy, tour, pos, start, l1, l2, l3, queue, queued, att):
    """Segments B, C, D of l1, l2, l3 cities after position `start` reconnected A D C B; their 8 end cities
    queued (from an empty queue). Returns (length change, queued count)."""
    n = tour.shape[0]
    i = (start + 1) % n
    last = (start + l1 + l2 + l3) % n
    a, e = tour[start], tour[(last + 1) % n]
    b1, b2 = tour[i], tour[(start + l1) % n]
    c1, c2 = tour[(start + l1 + 1) % n], tour[(start + l1 + l2) % n]
    d1, d2 = tour[(start + l1 + l2 + 1) % n], tour[last]
    delta = (dist(xy, a, d1, att) + dist(xy, d2, c1, att) + dist(xy, c2, b1, att) + dist(xy, b2, e, att)
             - dist(xy, a, b1, att) - dist(xy, b2, c1, att) - dist(xy, c2, d1, att) - dist(xy, d2, e, att))
    reverse(tour, pos, i, last)  # D' C' B'
    reverse(tour, pos, i, (start + l3) % n)
    reverse(tour, pos, (start + l3 + 1) % n, (start + l3 + l2) % n)
    reverse(tour, pos, (start + l3 + l2 + 1) % n, last)
    count = 0
    for c in (a, b1, b2, c1, c2, d1, d2, e):
        count = push(queue, queued, 0, count, c)
    return delta, count


@njit(cache=True)
def first_descent(xy, cand, tour, pos, queue, queued, att):
    """3-opt local optimum of the tour, every city queued in index order; returns the gain."""
    n = tour.shape[0]
    for c in range(n):
        pos[tour[c]] = c
        queue[c] = c
        queued[c] = 1
    return local_search(xy, cand, tour, pos, queue, queued, n, att)


@njit(cache=True)
def ils_solution(xy, cand, key, tour, pos, best, best_pos, queue, queued, length, it_from, it_to, seg, att):
    """Iterations it_from .. it_to - 1 of one solution (iteration 0: its first descent). length (1,) holds
    the best tour's length (iteration 0 sets it from the start tour's)."""
    n = tour.shape[0]
    for it in range(it_from, it_to):
        if it == 0:
            length[0] -= first_descent(xy, cand, tour, pos, queue, queued, att)
            best[:] = tour
            best_pos[:] = pos
            continue
        start = int(uniform(key, it, 0) * n)
        l1 = 1 + int(uniform(key, it, 1) * seg)
        l2 = 1 + int(uniform(key, it, 2) * seg)
        l3 = 1 + int(uniform(key, it, 3) * seg)
        delta, count = double_bridge(xy, tour, pos, start, l1, l2, l3, queue, queued, att)
        current = length[0] + delta - local_search(xy, cand, tour, pos, queue, queued, count, att)
        if current <= length[0]:
            length[0] = current
            best[:] = tour
            best_pos[:] = pos
        else:
            tour[:] = best
            pos[:] = best_pos


@njit(cache=True, parallel=True)
def ils_population(xy, cand, seed, tours, pos, bests, best_pos, queues, queued, lengths, it_from, it_to, seg, att):
    """ils_solution for every solution s of the population (arrays (P, n), lengths (P, 1)), in parallel."""
    for s in prange(tours.shape[0]):
        key = np.array([seed, s], dtype=np.uint64)
        ils_solution(xy, cand, key, tours[s], pos[s], bests[s], best_pos[s], queues[s], queued[s], lengths[s],
                     it_from, it_to, seg, att)
