"""Numba kernels of the Q3AP, in product and in general form: the O(n) delta of any move of a pair of permutations that
swaps (k, l) in p and (r, s) in q (-1: no swap), which serves both neighborhoods (pair_swaps.py; docs/internals.md)."""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import prange

from mols.jit import cached_njit


@cached_njit(inline="always")
def source(i, a, b):
    """The position whose value a swap of positions a and b brings to position i (a = -1: no swap)."""
    if i == a:
        return b
    if i == b:
        return a
    return i


@cached_njit(inline="always")
def changed(u, k, l, r, s):
    """Position u of the move's slots (k, l, r, s), or -1 where that slot is empty or repeats k or l."""
    i = (k, l, r, s)[u]
    if u >= 2 and (i == k or i == l):
        return -1
    return i


@cached_njit(inline="always")
def moved(t, k, l, r, s):
    """Whether position t is one of the move's."""
    return t == k or t == l or t == r or t == s


@cached_njit
def move_delta(A, Bp, Eq, k, l, r, s, symmetric):
    """The change of f when positions (k, l) swap in p and (r, s) in q (docs/internals.md): O(n)."""
    n = A.shape[0]
    outside = 0
    inside = 0
    for u in range(4):
        i = changed(u, k, l, r, s)
        if i < 0:
            continue
        pi, qi = source(i, k, l), source(i, r, s)
        for t in range(n):
            if moved(t, k, l, r, s):
                continue
            outside += A[i, t] * (Bp[pi, t] * Eq[qi, t] - Bp[i, t] * Eq[i, t])
            if not symmetric:
                outside += A[t, i] * (Bp[t, pi] * Eq[t, qi] - Bp[t, i] * Eq[t, i])
        for v in range(4):
            j = changed(v, k, l, r, s)
            if j >= 0:
                pj, qj = source(j, k, l), source(j, r, s)
                inside += A[i, j] * (Bp[pi, pj] * Eq[qi, qj] - Bp[i, j] * Eq[i, j])
    return (2 * outside if symmetric else outside) + inside


@cache
def neighborhood_kernel(swaps, symmetric: bool):
    """The kernel of a neighborhood whose move id `swaps` maps to (k, l, r, s): F[t, 0] = cost + delta(t)."""
    @cached_njit(parallel=True)
    def kernel(A, x, cost, Bp, Eq, F):
        n = Bp.shape[0]
        for t in prange(F.shape[0]):
            k, l, r, s = swaps(np.int64(t), n)  # a prange index is unsigned: keep the arithmetic in int64
            F[t, 0] = cost[0] + move_delta(A, Bp, Eq, k, l, r, s, symmetric)

    return kernel


@cached_njit(inline="always")
def triple(x, i, j, l):
    """The row of C (and entry of b) of position i holding p's value x[j] and q's value x[n + l]."""
    n = x.shape[0] // 2
    return (i * n + x[j]) * n + x[n + l]


@cached_njit
def general_delta(C, b, x, k, l, r, s, symmetric):
    """The change of f in general form (C: the (n^3, n^3) matrix of triples) when positions (k, l) swap in p and
    (r, s) in q (docs/internals.md): O(n) reads of C."""
    n = x.shape[0] // 2
    outside = 0
    inside = 0
    linear = 0
    for u in range(4):
        i = changed(u, k, l, r, s)
        if i < 0:
            continue
        old, new = triple(x, i, i, i), triple(x, i, source(i, k, l), source(i, r, s))
        linear += b[new] - b[old]
        for t in range(n):
            if moved(t, k, l, r, s):
                continue
            other = triple(x, t, t, t)
            outside += C[new, other] - C[old, other]
            if not symmetric:
                outside += C[other, new] - C[other, old]
        for v in range(4):
            j = changed(v, k, l, r, s)
            if j >= 0:
                inside += C[new, triple(x, j, source(j, k, l), source(j, r, s))] - C[old, triple(x, j, j, j)]
    return linear + (2 * outside if symmetric else outside) + inside


@cache
def general_kernel(swaps, symmetric: bool):
    """The general form's kernel of a neighborhood whose move id `swaps` maps to (k, l, r, s)."""
    @cached_njit(parallel=True)
    def kernel(C, b, x, cost, F):
        n = x.shape[0] // 2
        for t in prange(F.shape[0]):
            k, l, r, s = swaps(np.int64(t), n)  # a prange index is unsigned: keep the arithmetic in int64
            F[t, 0] = cost[0] + general_delta(C, b, x, k, l, r, s, symmetric)

    return kernel
