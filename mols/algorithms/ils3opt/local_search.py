"""The first-improvement local search of ILS-3opt (Numba; ils3opt.cu's local_search is its twin): don't-look bits
over a queue of cities, each city's first improving 3-opt move, else (oropt) its first Or-opt move."""

from __future__ import annotations

import numpy as np

from mols.algorithms.ils3opt.or_opt import apply_or, or_move
from mols.algorithms.ils3opt.three_opt import improve_city
from mols.jit import cached_njit


@cached_njit(inline="always")
def push(queue, queued, head, count, c):
    """Append c to the circular queue of cities to look at (its don't-look bit off); returns the new count."""
    if queued[c]:
        return count
    n = queue.shape[0]
    queued[c] = 1
    queue[(head + count) % n] = c
    return count + 1


@cached_njit
def local_search(xy, cand, tour, pos, queue, queued, count, att, dirty=None, oropt=False):
    """First-improvement 3-opt with don't-look bits: cities queue[0:count] (queued[c] set) are looked at in
    turn; a city without an improving move (3-opt, then Or-opt where `oropt`) gets its bit back on; the end cities
    of a move are queued again; cand: three_opt.candidate_table's lists. Returns the total gain (the tour is that
    much shorter)."""
    n = tour.shape[0]
    touched = np.empty(6, np.int64)
    head = 0
    total = 0
    while count > 0:
        t1 = queue[head]
        head = head + 1 if head + 1 < n else 0
        count -= 1
        queued[t1] = 0
        m, gain = improve_city(xy, cand, tour, pos, t1, att, touched, dirty)
        if m == 0 and oropt:
            found, fwd, gain = or_move(xy, cand, tour, pos, t1, att, touched)
            if found:
                apply_or(tour, pos, touched, fwd, dirty)
                m = 6
        total += gain
        for q in range(m):
            count = push(queue, queued, head, count, touched[q])
    return total
