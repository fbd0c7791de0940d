"""The permuted perceptron problem as a binary problem: bit b_j gives V_j = 2 b_j - 1; minimise Knudsen and
Meier's cost, which is 0 exactly on the solutions (target 0)."""

from __future__ import annotations

import numpy as np

from mols.encodings import BinaryVector
from mols.problems.base import Problem, integer_dtype
from mols.problems.ppp.cpu import G1, G2
from mols.problems.ppp.instance import PppInstance
from mols.problems.ppp.kernels import PppKernels


class Ppp(Problem):
    """Find V with A V >= 0 and A V = S as multisets. Kernels (kernels.py): one Hamming-k neighbor in O(m) from
    the state Y = A V (cpu.py; ppp.cu: one warp per neighbor), and on the GPU Hamming 2 in O(m / 32 + the
    values of Y) by one thread, from bit-packed columns whose rows ppp_pack sorts by Y (ppp.cu)."""

    name = "ppp"
    objectives = ("cost",)
    kernel_set = PppKernels
    neighborhoods = ("hamming1", "hamming2", "hamming3")
    target = 0

    def __init__(self, instance: PppInstance):
        self.instance = instance
        self.n = instance.n
        self.encoding = BinaryVector(instance.n)
        # |Y_i| <= n: the sign term is at most 2 G1 m n, the histogram term at most 2 G2 m
        self.dtype = integer_dtype(2 * G1 * instance.m * instance.n + 2 * G2 * instance.m, f"ppp {instance.name}")
        self.HS = instance.histogram  # (n + 1,) the histogram of S, which the cost compares A V's with

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        return self._costs((2 * X.astype(np.int64) - 1) @ self.instance.a.T.astype(np.int64))

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """The same cost, with Y = A V summed from the int8 matrix (no int64 copy of A for one solution)."""
        return self._costs(self.instance.product(2 * np.asarray(x, dtype=np.int8) - 1)[None])[0].astype(self.dtype)

    def _costs(self, Y: np.ndarray) -> np.ndarray:
        """(B, 1) costs of the products Y (B, m) = A V."""
        sign_term = (np.abs(Y) - Y).sum(axis=1)
        H = np.stack([np.bincount(y[y >= 1], minlength=self.n + 1) for y in Y])  # (B, n + 1)
        histogram_term = np.abs(H[:, 1:] - self.HS[1:]).sum(axis=1)
        return (G1 * sign_term + G2 * histogram_term)[:, None]

    def is_solution(self, x: np.ndarray) -> bool:
        """Whether the bits x solve the PPP (A V >= 0 and A V = S as multisets): cost 0."""
        return self.instance.solves(2 * np.asarray(x, dtype=np.int8) - 1)
