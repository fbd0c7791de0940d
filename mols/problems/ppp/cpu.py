"""Numba kernels of the PPP: a solution's state (Y = A V and its histogram window), and the cost of every Hamming-k
neighbor from it in O(m + window bins); ppp.cu is the CUDA twin (the same integers; docs/internals.md)."""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import prange

from mols.jit import cached_njit
from mols.neighborhoods.hamming import decode1, decode2, decode3

G1, G2 = 30, 1  # Knudsen and Meier's weights of the sign term and of the histogram term
MAX_FLIPS = 3  # hamming3
CHUNK = 64  # moves per parallel task; each task clears and reuses its own histogram


@cached_njit
def fill_state(AT, HS, x, bits, Y, window, order, levels, ends, residual, NEG):
    """bits = x and Y = A V (V = 2 x - 1): from the previous call's bits and Y by the columns that changed
    where they are few (window[3] = 1: the state holds a previous call's; the buffers start zeroed), else in
    O(mn); the window (lo, hi, outside); and, for ppp.cu's Hamming 2 (the Numba kernel ignores them), Y's
    values on the grid v_t = v0 + 2 t (levels = (T, v0, outside2), v0 = min Y - 4, T values up to max Y + 4:
    every Y_i has n's parity, and two flips move it by -4, 0 or 4): order (m,) the rows sorted by Y,
    ends[t] the end of the rows with value <= v_t in that order (m from t = T - 2 on), residual[t] =
    H(Y)_v - H(S)_v at v = v_t in 1..n (0 elsewhere), outside2 the sum of H(S) over 1..n off the grid, and
    NEG[0] the sum of -Y_i over the negative Y_i."""
    n, m = AT.shape
    product(AT, x, bits, Y, window[3] == 1)
    window[3] = 1
    low, high = Y.min(), Y.max()
    lo, hi = max(1, low - 2 * MAX_FLIPS), min(n, high + 2 * MAX_FLIPS)
    outside = 0
    for b in range(1, n + 1):
        if b < lo or b > hi:
            outside += HS[b]
    window[0], window[1], window[2] = lo, hi, outside
    v0, T = low - 4, (high - low) // 2 + 5
    sort_rows(Y, v0, order, ends)
    outside2 = HS[1:].sum()
    for t in range(ends.shape[0]):
        v = v0 + 2 * t
        residual[t] = 0
        if t < T and 1 <= v <= n:
            residual[t] = ends[t] - (ends[t - 1] if t > 0 else 0) - HS[v]
            outside2 -= HS[v]
    levels[0], levels[1], levels[2] = T, v0, outside2
    negative = np.int64(0)
    for i in range(m):
        negative -= min(Y[i], 0)
    NEG[0] = negative


@cached_njit
def product(AT, x, bits, Y, known):
    """bits = x and Y = A V. known: Y is A V for the bits already there; then only the columns whose bit
    changed are added (2 V_j A[:, j] each), unless more than a quarter of them did."""
    n, m = AT.shape
    changed = 0
    for j in range(n):
        changed += bits[j] != x[j]
    scale = 2
    if not known or 4 * changed > n:
        Y[:] = 0
        scale = 1  # from Y = 0, every column adds V_j A[:, j]
    for j in range(n):
        if scale == 1 or bits[j] != x[j]:
            c = scale * (2 * np.int32(x[j]) - 1)
            bits[j] = x[j]
            for i in range(m):
                Y[i] += c * AT[j, i]


@cached_njit
def sort_rows(Y, v0, order, ends):
    """order = the rows sorted by value (a counting sort, stable), ends[t] = the end in that order of the
    rows with value <= v0 + 2 t (v0 <= min Y, of Y's parity; ends (E,), E > (max Y - v0) / 2)."""
    ends[:] = 0
    for i in range(Y.shape[0]):
        ends[(Y[i] - v0) >> 1] += 1
    start = 0
    for t in range(ends.shape[0]):  # counts to starts
        start, ends[t] = start + ends[t], start
    for i in range(Y.shape[0]):  # each bin's start moves to its end
        t = (Y[i] - v0) >> 1
        order[ends[t]] = i
        ends[t] += 1


@cached_njit(inline="always")
def flips(bits, idx, n, k):
    """Move idx of Hamming k (k = 1..3; the ids of neighborhoods/hamming.py) as three flips (j, -2 V_j):
    the flips beyond k repeat a bit with coefficient 0, so one loop serves every k."""
    if k == 1:
        j0 = j1 = j2 = decode1(idx, n)[0]
    elif k == 2:
        j0, j1 = decode2(idx, n)
        j2 = j1
    else:
        j0, j1, j2 = decode3(idx, n)
    return j0, j1, j2, coefficient(bits, j0), coefficient(bits, j1) * (k > 1), coefficient(bits, j2) * (k > 2)


@cached_njit(inline="always")
def coefficient(bits, j):
    """Flipping bit j adds -2 V_j A[:, j] to Y (V_j = 2 b_j - 1)."""
    return 2 - 4 * np.int64(bits[j])


@cached_njit(inline="always")
def move_cost(AT, HS, Y, window, move, hist):
    """The cost after the three flips of `move` (flips). hist: scratch of hi - lo + 3 bins, the first and
    last for the values below and above the window (clamping is branch-free: the signs of Y' are random)."""
    j0, j1, j2, c0, c1, c2 = move
    lo, bins = window[0], hist.shape[0] - 2
    hist[:] = 0
    negative = 0
    for i in range(Y.shape[0]):
        y = Y[i] + c0 * AT[j0, i] + c1 * AT[j1, i] + c2 * AT[j2, i]
        negative -= min(y, 0)
        hist[min(max(y - lo, -1), bins) + 1] += 1
    diff = np.int64(window[2])
    for b in range(bins):
        diff += abs(hist[b + 1] - HS[lo + b])
    return G1 * 2 * negative + G2 * diff  # |y| - y = 2 max(-y, 0)


@cache
def neighborhood_kernel(k: int):
    """The kernel (AT, HS, ATB, A, SORTED, *state, F, first) of Hamming k (ATB, A, SORTED and the state after
    the window are ppp.cu's, unused here): F[r, 0] = the cost of the neighbor by move first + r, in parallel
    over chunks of moves. k is a constant of the compiled code (the unused flips vanish), and the only one
    the closure holds, so Numba's cache keeps the three kernels."""
    @cached_njit(parallel=True)
    def kernel(AT, HS, ATB, A, SORTED, bits, Y, window, order, levels, ends, residual, NEG, F, first):
        n, rows = AT.shape[0], F.shape[0]
        bins = max(0, window[1] - window[0] + 1)
        for c in prange((rows + CHUNK - 1) // CHUNK):
            start = np.int64(c) * CHUNK  # a prange index is unsigned: mixed with signed ints it would be a float
            hist = np.empty(bins + 2, dtype=np.int32)
            for r in range(start, min(rows, start + CHUNK)):
                F[r, 0] = move_cost(AT, HS, Y, window, flips(bits, first + r, n, k), hist)

    return kernel
