"""Numba kernel of the QAP's 3-exchange neighborhood: the change of every 3-cycle of positions in O(n), as the swap's
(cpu.py); qap.cu's cycle_delta is its twin (the formula: docs/internals.md)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit
from mols.neighborhoods.three_exchange import triple


@cached_njit(inline="always")
def cycle_delta(A, AT, Bp, BpT, o, i, j, k):
    """The change of objective o when position i takes the value of position k, j that of i and k that of j (the
    cycle (i, j, k)): rows and columns of the three positions against every position t in O(n) (Bp'[u, t] =
    Bp[src u, t]), then the loop's terms at t in the cycle replaced by the 3 x 3 block's own (Bp[src u, src t])."""
    n = Bp.shape[0]
    cycle, src = (i, j, k), (k, i, j)
    total = 0
    for t in range(n):
        for q in range(3):
            u, s = cycle[q], src[q]
            if BpT.shape[0] == 0:
                total += 2 * A[o, u, t] * (Bp[s, t] - Bp[u, t])
            else:
                total += A[o, u, t] * (Bp[s, t] - Bp[u, t]) + AT[o, u, t] * (BpT[s, t] - BpT[u, t])
    for p in range(3):
        u, su = cycle[p], src[p]
        for q in range(3):
            t, st = cycle[q], src[q]
            total += A[o, u, t] * (Bp[su, st] - Bp[su, t]) - A[o, t, u] * (Bp[t, su] - Bp[t, u])
    return total


@cached_njit(parallel=True)
def neighborhood(A, AT, perm, cost, Bp, BpT, F):
    """F[id, o] = cost[o] + the change of 3-exchange move id: O(n) per move, in parallel over the triples (ids 2r
    and 2r + 1 rotate triple r one way and the other)."""
    n = perm.shape[0]
    for r in prange(F.shape[0] // 2):
        w = np.int64(r)  # a prange index is unsigned: keep the arithmetic signed
        i, j, k = triple(w, n)
        for o in range(cost.shape[0]):
            F[2 * w, o] = cost[o] + cycle_delta(A, AT, Bp, BpT, o, i, j, k)
            F[2 * w + 1, o] = cost[o] + cycle_delta(A, AT, Bp, BpT, o, i, k, j)
