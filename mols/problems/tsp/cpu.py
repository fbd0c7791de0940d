"""Numba kernels: the whole swap or 2-opt neighborhood of a tour (or a chunk of it), O(1) per move."""

from __future__ import annotations

from functools import cache

from numba import prange

from mols.jit import THREADS, cached_njit
from mols.neighborhoods.swap import decode
from mols.problems.tsp.moves import next_pair, swap_delta, two_opt_delta

CHUNK = 1024  # consecutive moves per work item, dealt round-robin to the threads
DELTAS = {"swap": swap_delta, "2opt": two_opt_delta}


@cache
def make_cpu_kernel(neighborhood: str, att: bool):
    delta = DELTAS[neighborhood]

    @cached_njit(parallel=True)
    def evaluate_chunk(perm, txy, edge, length, F, first):
        # F row r is move id first + r; swap and 2-opt share the triangular id order, so a work
        # item decodes its first id and steps through the next ones.
        n, k, rows = perm.shape[0], length.shape[0], F.shape[0]
        n_threads = THREADS
        for t in prange(n_threads):
            for item in range(t, (rows + CHUNK - 1) // CHUNK, n_threads):
                i, j = decode(first + item * CHUNK, n)
                for r in range(item * CHUNK, min(rows, (item + 1) * CHUNK)):
                    for o in range(k):
                        F[r, o] = length[o] + delta(txy[o], edge[o], n, i, j, att)
                    i, j = next_pair(i, j, n)

    return evaluate_chunk
