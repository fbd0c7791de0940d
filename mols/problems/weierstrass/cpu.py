"""The Numba kernel of the Weierstrass function over a sampled neighborhood (crowns): each neighbor's
point drawn, then its value, in parallel over the neighbors."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import numpy as np
from numba import prange

from mols.jit import cached_njit

REAL = {"float64": np.float64, "float32": np.float32}


@cache
def neighborhood_kernel(apply_into: Callable, precision: str) -> Callable:
    """The kernel (weights, table, x, key, F): F[t, 0] = f(neighbor t of x), in `precision` arithmetic (weights
    has that dtype): W of each coordinate in turn, its terms i = 1..100 in turn (model.py). The reduction
    table (kernels.reduction_table) is the CUDA kernel's: this one leaves it, libm's sin reduces exactly."""
    real = REAL[precision]

    @cached_njit
    def coordinate_value(weights, y):
        s = real(0.0)
        for i in range(weights.shape[0]):
            s += weights[i] * math.sin(math.ldexp(y, i + 1))  # 2^i y exactly
        return s

    @cached_njit(parallel=True)
    def kernel(weights, table, x, key, F):
        n = x.shape[0]
        for t in prange(F.shape[0]):
            y = np.empty(n)
            apply_into(x, t, n, key, y)
            total = real(0.0)
            for k in range(n):
                total += coordinate_value(weights, real(y[k]))
            F[t, 0] = total

    return kernel
