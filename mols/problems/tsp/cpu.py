"""Numba kernels: the whole swap, 2-opt or 3-exchange neighborhood of a tour (or a chunk of it), O(1) per move."""

from __future__ import annotations

from functools import cache

from numba import prange

from mols.jit import THREADS, cached_njit
from mols.neighborhoods import swap, three_exchange
from mols.problems.tsp.moves import cycle_delta, next_pair, swap_delta, two_opt_delta

CHUNK = 1024  # consecutive moves per work item, dealt round-robin to the threads
# Each neighborhood's id -> move, the move of the next id, and the move's delta. Swap and 2-opt share the pairs' ids.
MOVES = {"swap": (swap.decode, next_pair, swap_delta), "2opt": (swap.decode, next_pair, two_opt_delta),
         "3exchange": (three_exchange.decode, three_exchange.next_move, cycle_delta)}


@cache
def make_cpu_kernel(neighborhood: str, att: bool):
    decode, step, delta = MOVES[neighborhood]

    @cached_njit(parallel=True)
    def evaluate_chunk(perm, txy, edge, length, F, first):
        # F row r is move id first + r: a work item decodes its first id and steps through the next ones.
        n, k, rows = perm.shape[0], length.shape[0], F.shape[0]
        n_threads = THREADS
        for t in prange(n_threads):
            for item in range(t, (rows + CHUNK - 1) // CHUNK, n_threads):
                move = decode(first + item * CHUNK, n)
                for r in range(item * CHUNK, min(rows, (item + 1) * CHUNK)):
                    for o in range(k):
                        F[r, o] = length[o] + delta(txy[o], edge[o], n, *move, att)
                    move = step(*move, n)

    return evaluate_chunk
