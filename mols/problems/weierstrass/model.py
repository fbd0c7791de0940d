"""The Weierstrass function on [-1, 1]^n, minimised: the continuous problem of Luong, Melab and Talbi (IEEE TC 2013,
section 6.3), with the crowns neighborhood; the order of its sums: docs/internals.md."""

from __future__ import annotations

import numpy as np

from mols.encodings import RealVector
from mols.problems.base import Problem
from mols.problems.weierstrass.instance import WeierstrassInstance
from mols.problems.weierstrass.kernels import WeierstrassKernels

TERMS, HOLDER = 100, 0.25


def term_weights(precision: str) -> np.ndarray:
    """(TERMS,) the weights 2^(-i h), i = 1..TERMS, in the given precision."""
    return (2.0 ** (-HOLDER * np.arange(1, TERMS + 1))).astype(precision)


class Weierstrass(Problem):
    """Minimise sum_k sum_i 2^(-i h) sin(2^i x_k) over [-1, 1]^n (float64 or float32); kernels.py runs several
    threads per neighbor on the GPU."""

    name = "weierstrass"
    objectives = ("f",)
    dtype = np.dtype(np.float64)
    kernel_set = WeierstrassKernels
    neighborhoods = ("crowns", "adaptive")

    def __init__(self, instance: WeierstrassInstance):
        self.instance = instance
        self.n = instance.dimension
        self.precision = instance.precision
        self.encoding = RealVector(self.n, -1.0, 1.0)
        self.weights = term_weights(self.precision)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        Y = X.astype(self.precision)
        per_coordinate = np.zeros_like(Y)  # (B, n)
        for i, w in enumerate(self.weights, start=1):
            per_coordinate += w * np.sin(np.ldexp(Y, i))  # 2^i y exactly
        f = np.zeros(len(Y), dtype=self.precision)
        for k in range(Y.shape[1]):  # coordinate by coordinate, as the kernels add them
            f += per_coordinate[:, k]
        return f[:, None]
