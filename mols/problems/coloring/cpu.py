"""Numba kernels of graph coloring under the change neighborhood: the state of a coloring (conf[v, c], the
neighbors of v colored c) and every move's conflicts in O(1): cost + conf[v, b] - conf[v, a] to recolor v a -> b."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit
from mols.neighborhoods.change import change_decode, new_value


@cached_njit
def fill_state(offsets, neighbors, x, x_state, conf, cost):
    """The state of x from the adjacency (CSR: the neighbors of v are neighbors[offsets[v]:offsets[v + 1]]),
    in O(n k + m)."""
    conf[:] = 0
    clashes = 0
    for v in range(x.shape[0]):
        x_state[v] = x[v]
        for j in range(offsets[v], offsets[v + 1]):
            conf[v, x[neighbors[j]]] += 1
        clashes += conf[v, x[v]]
    cost[0] = clashes // 2  # each conflicting edge was counted from both ends


@cached_njit(parallel=True)
def change_neighborhood(x, conf, cost, F):
    """F[t, 0] = the conflicts after move t of the change neighborhood (k = conf.shape[1] colors)."""
    k = conf.shape[1]
    for t in prange(F.shape[0]):
        v, r = change_decode(np.int64(t), k)  # a prange index is unsigned: mixed with signed, a float
        a = x[v]
        F[t, 0] = cost[0] + conf[v, new_value(a, r, k)] - conf[v, a]
