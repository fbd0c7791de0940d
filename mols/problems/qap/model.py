"""The quadratic assignment problem, with k flow matrices for the multiobjective mQAP (k = 1: QAPLIB)."""

from __future__ import annotations

import numpy as np

from mols.encodings import Permutation
from mols.problems.base import Problem, integer_dtype
from mols.problems.io import source
from mols.problems.qap import cpu
from mols.problems.qap.instance import QapInstance
from mols.problems.qap.kernels import NEIGHBORHOODS, QapKernels


def objective_dtype(instance: QapInstance) -> np.dtype:
    """int32 when no cost can exceed it (sum |a_ij| max |b| per objective), else int64. Deltas may
    pass the bound on the way; the CUDA kernel sums in unsigned (wrapping) arithmetic, so the
    neighbor's cost is exact whenever it fits."""
    bound = int(np.abs(instance.a).sum(axis=(1, 2)).max()) * int(np.abs(instance.b).max())
    return integer_dtype(bound, source(instance))


class Qap(Problem):
    """Place n facilities on n locations: p(i) is the location of facility i; all objectives minimised."""

    kernel_set = QapKernels
    neighborhoods = NEIGHBORHOODS

    def __init__(self, instance: QapInstance, name: str = "qap"):
        self.instance = instance
        self.name = name
        self.n = instance.n
        self.objectives = ("cost",) if instance.k == 1 else tuple(f"cost_{o + 1}" for o in range(instance.k))
        self.dtype = objective_dtype(instance)
        self.symmetric = instance.symmetric
        self.encoding = Permutation(self.n)

    def _evaluate(self, batch: np.ndarray) -> np.ndarray:
        a = self.instance.a
        return np.stack([np.einsum("kij,ij->k", a, self.instance.b[np.ix_(x, x)]) for x in batch.astype(np.intp)])

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """Through the kernels' state: O(k n^2) in Numba."""
        kernels = self.kernels
        state = tuple(np.zeros(shape, dtype) for shape, dtype in kernels.state_layout())
        state[0][:] = -1  # no permutation: a rebuild
        cpu.fill_state(kernels.A, kernels.AT, kernels.b, np.asarray(x, dtype=np.int32), *state)
        return state[1]

    def _project(self, columns: tuple[int, ...]) -> Qap:
        """The mQAP of the flow matrices `columns`, in that order (with_objectives)."""
        inst = self.instance
        return Qap(QapInstance(inst.name, inst.a[list(columns)], inst.b, inst.path), name=self.name)
