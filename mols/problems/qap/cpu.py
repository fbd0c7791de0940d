"""Numba kernels of the QAP swap neighborhood: the O(n) delta of every move, and Taillard's O(1) update after a swap
(the formulas: docs/internals.md)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit


@cached_njit(inline="always")
def move_delta(A, AT, Bp, BpT, o, r, s):
    """The change of objective o when the facilities at positions r and s swap (O(n))."""
    n = Bp.shape[0]
    total = 0
    if BpT.shape[0] == 0:
        for t in range(n):
            total += (A[o, r, t] - A[o, s, t]) * (Bp[s, t] - Bp[r, t])
        total *= 2
    else:
        for t in range(n):
            total += ((AT[o, r, t] - AT[o, s, t]) * (BpT[s, t] - BpT[r, t])
                      + (A[o, r, t] - A[o, s, t]) * (Bp[s, t] - Bp[r, t]))
    a_rr, a_rs, a_sr, a_ss = A[o, r, r], A[o, r, s], A[o, s, r], A[o, s, s]
    b_rr, b_rs, b_sr, b_ss = Bp[r, r], Bp[r, s], Bp[s, r], Bp[s, s]
    t_r = (a_rr - a_rs) * (b_rs - b_rr) + (a_rr - a_sr) * (b_sr - b_rr)
    t_s = (a_sr - a_ss) * (b_ss - b_sr) + (a_rs - a_ss) * (b_ss - b_rs)
    inside = (a_rr - a_ss) * (b_ss - b_rr) + (a_rs - a_sr) * (b_sr - b_rs)
    return total - t_r - t_s + inside


@cached_njit(inline="always")
def row_start(r, n):
    return r * n - r * (r + 1) // 2


@cached_njit
def fill_state(A, AT, b, x, perm, cost, Bp, BpT):
    """The state of x. When x is the state's permutation, keep it; when it is that permutation with
    one swap applied (as in a tabu step), update in O(kn): the cost by the move's delta, then swap
    rows and columns r, s of Bp; otherwise rebuild in O(k n^2)."""
    n = x.shape[0]
    if np.array_equal(perm, x):
        return
    r, s = swapped_pair(perm, x)
    if r >= 0:
        for o in range(cost.shape[0]):
            cost[o] += move_delta(A, AT, Bp, BpT, o, r, s)
        swap_rows_columns(Bp, r, s)
        if BpT.shape[0]:
            swap_rows_columns(BpT, r, s)
        perm[r], perm[s] = perm[s], perm[r]
        return
    for i in range(n):
        perm[i] = x[i]
        for j in range(n):
            Bp[i, j] = b[x[i], x[j]]
    if BpT.shape[0]:
        BpT[:] = Bp.T
    for o in range(cost.shape[0]):
        total = 0
        for i in range(n):
            for j in range(n):
                total += A[o, i, j] * Bp[i, j]
        cost[o] = total


@cached_njit
def swapped_pair(old, new):
    """(r, s), r < s, when `new` is `old` with positions r and s exchanged; (-1, -1) otherwise."""
    r = s = -1
    for i in range(old.shape[0]):
        if old[i] != new[i]:
            if r < 0:
                r = i
            elif s < 0:
                s = i
            else:
                return -1, -1
    if s < 0 or old[r] != new[s] or old[s] != new[r]:
        return -1, -1
    return r, s


@cached_njit
def swap_rows_columns(M, r, s):
    for j in range(M.shape[1]):
        M[r, j], M[s, j] = M[s, j], M[r, j]
    for i in range(M.shape[0]):
        M[i, r], M[i, s] = M[i, s], M[i, r]


@cached_njit(parallel=True)
def neighborhood(A, AT, perm, cost, Bp, BpT, F):
    """F[id, o] = cost[o] + delta of swap move id: O(n) per move, in parallel over rows of moves."""
    n = perm.shape[0]
    for r in prange(n - 1):
        start = row_start(r, n)
        for s in range(r + 1, n):
            for o in range(cost.shape[0]):
                F[start + s - r - 1, o] = cost[o] + move_delta(A, AT, Bp, BpT, o, r, s)


@cached_njit
def taillard_update(A, AT, Bp, BpT, D, r, s):
    """D (k, n_moves): the deltas of the previous solution; made those of the new one, whose
    state Bp is given, after the swap (r, s). The update's factors are differences of rows r and s:
    ca = a[r] - a[s], ct = aT[r] - aT[s], cb = Bp[r] - Bp[s], dt = BpT[r] - BpT[s]."""
    BT = Bp if BpT.shape[0] == 0 else BpT
    for o in range(D.shape[0]):
        ca, ct = A[o, r] - A[o, s], AT[o, r] - AT[o, s]
        cb, dt = Bp[r] - Bp[s], BT[r] - BT[s]
        _update_disjoint(ca, ct, cb, dt, D[o])
        _refresh_touching(A, AT, Bp, BpT, D[o], o, r, s)


@cached_njit(parallel=True)
def _update_disjoint(ca, ct, cb, dt, D):
    for u in prange(ca.shape[0] - 1):
        update_row(ca, ct, cb, dt, D, u)


@cached_njit(inline="always")
def update_row(ca, ct, cb, dt, D, u):
    """Taillard's change of the deltas of the moves (u, v), v > u (those touching r or s made afresh after)."""
    n = ca.shape[0]
    start = row_start(u, n) - u - 1
    for v in range(u + 1, n):
        D[start + v] += (ca[u] - ca[v]) * (cb[v] - cb[u]) + (ct[u] - ct[v]) * (dt[v] - dt[u])


@cached_njit(parallel=True)
def _refresh_touching(A, AT, Bp, BpT, D, o, r, s):
    """The deltas of the moves touching r or s (which the update leaves wrong), afresh."""
    n = Bp.shape[0]
    for q in prange(n):
        refresh_pairs_of(A, AT, Bp, BpT, D, o, r, s, np.int64(q))  # a prange index is unsigned
    D[row_start(r, n) + s - r - 1] = move_delta(A, AT, Bp, BpT, o, r, s)


@cached_njit(inline="always")
def refresh_pairs_of(A, AT, Bp, BpT, D, o, r, s, w):
    """The deltas of the moves (w, r) and (w, s) afresh, w outside {r, s}."""
    n = Bp.shape[0]
    if w != r and w != s:
        for z in (r, s):
            u, v = min(w, z), max(w, z)
            D[row_start(u, n) + v - u - 1] = move_delta(A, AT, Bp, BpT, o, u, v)


@cached_njit(parallel=True)
def all_deltas(A, AT, Bp, BpT, D):
    n = Bp.shape[0]
    for r in prange(n - 1):
        start = row_start(r, n)
        for s in range(r + 1, n):
            for o in range(D.shape[0]):
                D[o, start + s - r - 1] = move_delta(A, AT, Bp, BpT, o, r, s)


@cached_njit(parallel=True)
def add_cost(cost, D, F):
    for idx in prange(F.shape[0]):
        for o in range(F.shape[1]):
            F[idx, o] = cost[o] + D[o, idx]


class TaillardKernel:
    """The CPU kernel with memory: it keeps the previous solution and its deltas, and when the new
    solution is one swap away (a tabu step), updates them in O(n^2) instead of O(n^3)."""

    def __init__(self, n: int, k: int):
        self.previous = np.full(n, -1, dtype=np.int32)
        self.deltas = np.zeros((k, n * (n - 1) // 2), dtype=np.int64)

    def __call__(self, A, AT, perm, cost, Bp, BpT, F):
        r, s = swapped_pair(self.previous, perm)
        if r >= 0:
            taillard_update(A, AT, Bp, BpT, self.deltas, r, s)
        elif not np.array_equal(self.previous, perm):
            all_deltas(A, AT, Bp, BpT, self.deltas)
        self.previous[:] = perm
        add_cost(cost, self.deltas, F)
