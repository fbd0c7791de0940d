"""The permutation flowshop with three objectives: makespan, total tardiness, number of tardy jobs (or any of
them, in any order: with_objectives, the kernels writing only the columns chosen)."""

from __future__ import annotations

import copy
from typing import ClassVar

import numpy as np

from mols.encodings import Permutation
from mols.problems.base import Problem, integer_dtype
from mols.problems.flowshop.instance import FlowshopInstance
from mols.problems.flowshop.kernels import NEIGHBORHOODS, FlowshopKernels
from mols.problems.io import source

OBJECTIVES = ("makespan", "total_tardiness", "n_tardy")


def objective_dtype(instance: FlowshopInstance) -> np.dtype:
    """int32 when no completion time, due date or tardiness sum can overflow it, else int64 (an error
    where even that could overflow)."""
    horizon = int(instance.p.sum())  # no completion time exceeds it
    bound = max(instance.n * horizon, int(instance.due.max(initial=0)) + horizon)
    return integer_dtype(bound, source(instance))


class Flowshop(Problem):
    """A permutation of n jobs run on m machines in the same order; all objectives minimised."""

    name = "flowshop"
    objectives = OBJECTIVES
    kernel_set = FlowshopKernels
    neighborhoods = NEIGHBORHOODS
    objective_aliases: ClassVar[dict[str, str]] = {"tardiness": "total_tardiness"}
    columns = (0, 1, 2)  # the objectives of OBJECTIVES that F holds, in its order (_project)

    def __init__(self, instance: FlowshopInstance):
        self.instance = instance
        self.n = instance.n
        self.m = instance.m
        self.dtype = objective_dtype(instance)
        self.encoding = Permutation(self.n)

    def _evaluate(self, batch: np.ndarray) -> np.ndarray:
        p, due = self.instance.p, self.instance.due
        done = np.zeros((self.m, len(batch)), dtype=np.int64)  # completion of the previous job
        tardiness = np.zeros(len(batch), dtype=np.int64)
        n_tardy = np.zeros(len(batch), dtype=np.int64)
        for k in range(self.n):
            jobs = batch[:, k]
            left = np.zeros(len(batch), dtype=np.int64)
            for i in range(self.m):
                left = np.maximum(done[i], left) + p[i, jobs]
                done[i] = left
            late = left - due[jobs]
            tardiness += np.maximum(late, 0)
            n_tardy += late > 0
        return np.stack([done[-1], tardiness, n_tardy], axis=1)[:, self.columns]  # (B, n_obj)

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """Through the kernels' state (Numba): eext[n] are the last position's offset values."""
        kernels = self.kernels
        state = tuple(np.empty(shape, dtype) for shape, dtype in kernels.state_layout())
        kernels.fill_state(x, state)
        perm, eext, pref_t, pref_u, _ = state
        makespan = eext[self.n, self.m - 1] + kernels.q[perm[self.n - 1], self.m - 1]
        values = (makespan, pref_t[self.n], pref_u[self.n])
        return np.array([values[c] for c in self.columns], dtype=self.dtype)

    def _project(self, columns: tuple[int, ...]) -> Flowshop:
        projected = copy.copy(self)
        projected.columns = columns
        return projected
