"""Numba kernel: a whole flowshop neighborhood, incrementally, in parallel over chunks of moves."""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import prange

from mols.jit import THREADS, cached_njit
from mols.neighborhoods import Neighborhood
from mols.problems.flowshop.state import add_max_row, pair_row

CHUNK = 32  # consecutive moves per work item; thread t takes items t, t + T, t + 2T, ...
PAD = 16  # values (64 bytes or more) after a thread's scratch, so no two threads share a cache line

# Moves are grouped by first changed position, so their cost falls steadily along the ids: dealing the items
# round-robin balances the threads without a scheduler (and scaled better than Numba's parallel_chunksize).


@cache
def make_cpu_kernel(nbh: Neighborhood, columns: tuple[int, int, int] = (0, 1, 2)):
    """The kernel of `nbh` writing makespan, total tardiness and tardy jobs into the columns `columns` of F
    (-1: not written; Flowshop.output_columns). They are compile-time constants: the stores not made cost
    nothing, and neither does the map (0, 1, 2) of every objective."""
    decode, first_changed, source = nbh.decode, nbh.first_changed, nbh.source
    col_makespan, col_tardiness, col_tardy = columns

    @cached_njit(parallel=True)
    def evaluate_neighborhood(q, due, perm, eext, pref_t, pref_u, dpi, F):
        # A move changes the permutation from position s = first_changed on: start from the
        # current permutation's offset values eext[s] and recompute positions s..n-1 only (state.py).
        n, m = q.shape[0] - 1, q.shape[1]
        n_moves = F.shape[0]
        n_threads = THREADS
        for t in prange(n_threads):
            scratch = np.empty(2 * m + PAD, dtype=eext.dtype)
            e, d = scratch[:m], scratch[m : 2 * m]
            for chunk in range(t, (n_moves + CHUNK - 1) // CHUNK, n_threads):
                for idx in range(chunk * CHUNK, min(n_moves, (chunk + 1) * CHUNK)):
                    move = decode(idx, n)  # two positions, or three (3-exchange)
                    prev = first_changed(*move) - 1  # source position of the previous job; -1: none
                    e[:] = eext[prev + 1]
                    tardiness = pref_t[prev + 1]
                    n_tardy = pref_u[prev + 1]
                    for k in range(prev + 1, n):
                        src = source(*move, k)
                        job = perm[src]
                        if prev >= 0 and src == prev + 1:  # consecutive in perm: D is tabulated
                            last = add_max_row(e, dpi[prev], e)
                        else:
                            pair_row(q, perm[prev] if prev >= 0 else n, job, d)
                            last = add_max_row(e, d, e)
                        late = last + q[job, m - 1] - due[job]
                        if late > 0:
                            tardiness += late
                            n_tardy += 1
                        prev = src
                    if col_makespan >= 0:
                        F[idx, col_makespan] = last + q[perm[prev], m - 1]
                    if col_tardiness >= 0:
                        F[idx, col_tardiness] = tardiness
                    if col_tardy >= 0:
                        F[idx, col_tardy] = n_tardy

    return evaluate_neighborhood
