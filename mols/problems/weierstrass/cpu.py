"""The Numba kernels of the Weierstrass function over a sampled neighborhood: each neighbor's point drawn, then its
value, in parallel over the neighbors; in full (crowns) or from x's per-coordinate values (adaptive)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
from numba import prange

from mols.jit import cached_njit

REAL = {"float64": np.float64, "float32": np.float32}


@cache
def coordinate_function(precision: str) -> Callable:
    """W(y) = sum_i 2^(-ih) sin(2^i y), its terms i = 1..100 in turn, in `precision` arithmetic (model.py)."""
    real = REAL[precision]

    @cached_njit
    def coordinate_value(weights, y):
        s = real(0.0)
        for i in range(weights.shape[0]):
            s += weights[i] * math.sin(math.ldexp(y, i + 1))  # 2^i y exactly
        return s

    return coordinate_value


@cache
def neighborhood_kernel(apply_into: Callable, precision: str) -> Callable:
    """The kernel (weights, table, x, values, fx, key, F): F[t, 0] = f(neighbor t of x), in `precision` arithmetic
    (weights has that dtype): W of each coordinate in turn (model.py). The reduction table (kernels.reduction_table)
    is the CUDA kernel's: this one leaves it, libm's sin reduces exactly. values and fx are the incremental
    kernel's."""
    real, coordinate_value = REAL[precision], coordinate_function(precision)

    @cached_njit(parallel=True)
    def kernel(weights, table, x, values, fx, key, F):
        n = x.shape[0]
        for t in prange(F.shape[0]):
            y = np.empty(n)
            apply_into(x, t, n, key, y)
            total = real(0.0)
            for k in range(n):
                total += coordinate_value(weights, real(y[k]))
            F[t, 0] = total

    return kernel


@cache
def incremental_kernel(apply_into: Callable, precision: str) -> Callable:
    """The kernel of neighbors that move a few coordinates (adaptive): first values[k] = W(x_k) and fx = their sum
    in order (x's full value, as the CUDA prepare kernel makes them), then F[t, 0] = fx - (sum of W(x_k)) + (sum of
    W(y_k)) over the coordinates k that neighbor t moved, each sum in float64: O(moved) sines a neighbor, not O(n)."""
    real, coordinate_value = REAL[precision], coordinate_function(precision)

    @cached_njit(parallel=True)
    def kernel(weights, table, x, values, fx, key, F):
        n = x.shape[0]
        total = real(0.0)
        for k in range(n):
            values[k] = coordinate_value(weights, real(x[k]))
            total += real(values[k])
        fx[0] = total
        for t in prange(F.shape[0]):
            y = np.empty(n)
            apply_into(x, t, n, key, y)
            removed, added = 0.0, 0.0
            for k in range(n):
                if y[k] != x[k]:
                    removed += values[k]
                    added += coordinate_value(weights, real(y[k]))
            F[t, 0] = fx[0] - removed + added

    return kernel
