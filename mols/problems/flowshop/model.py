"""The permutation flowshop with three objectives: makespan, total tardiness, number of tardy jobs (or any of
them, in any order: with_objectives, the kernels writing only the columns chosen)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import ClassVar

import numpy as np

from mols.encodings import Permutation
from mols.neighborhoods import Neighborhood
from mols.problems.base import Layout, Problem, integer_dtype
from mols.problems.flowshop.cpu import make_cpu_kernel
from mols.problems.flowshop.instance import FlowshopInstance
from mols.problems.flowshop.state import cumulative_times, fill_state
from mols.problems.io import source

OBJECTIVES = ("makespan", "total_tardiness", "n_tardy")
SHARED_BUDGET = 44 * 1024  # bytes of shared memory per block for the tables the kernel stages
# Jobs from which one search's neighborhood interleaves 16 positions per thread instead of 4 (flowshop.cu's
# flowshop_neighborhood_alone): faster from 100 jobs, slower below and where searches share the launches.
ALONE_FROM = 100


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
    cuda_file = Path(__file__).with_name("flowshop.cu")
    cuda_kernel = "flowshop_neighborhood"
    population_kernel = "flowshop_population"
    lane_kernels = True
    neighborhoods = ("insertion", "swap")  # flowshop.cu walks their nbh_segments
    objective_aliases: ClassVar[dict[str, str]] = {"tardiness": "total_tardiness"}
    columns = (0, 1, 2)  # the objectives of OBJECTIVES that F holds, in its order (_project)

    def __init__(self, instance: FlowshopInstance):
        self.instance = instance
        self.n = instance.n
        self.m = instance.m
        self.dtype = objective_dtype(instance)
        self.q = cumulative_times(instance.p.T, self.dtype)  # (n + 1, m), see state.py
        self.due = instance.due.astype(self.dtype)
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
        state = tuple(np.empty(shape, dtype) for shape, dtype in self.state_layout())
        self.fill_state(x, state)
        perm, eext, pref_t, pref_u, _ = state
        makespan = eext[self.n, self.m - 1] + self.q[perm[self.n - 1], self.m - 1]
        values = (makespan, pref_t[self.n], pref_u[self.n])
        return np.array([values[c] for c in self.columns], dtype=self.dtype)

    def _project(self, columns: tuple[int, ...]) -> Flowshop:
        projected = copy.copy(self)
        projected.columns = columns
        return projected

    def output_columns(self) -> tuple[int, int, int]:
        """The column of F that each objective of OBJECTIVES goes to, -1 where it is not optimised: the kernels'
        compile-time map (cpu.py; flowshop.cu's COL_MAKESPAN, COL_TARDINESS, COL_TARDY)."""
        return tuple(self.columns.index(c) if c in self.columns else -1 for c in range(len(OBJECTIVES)))

    def data(self) -> tuple[np.ndarray, ...]:
        return self.q, self.due

    def state_layout(self) -> Layout:
        n, m, val = self.n, self.m, self.dtype
        int32 = np.dtype(np.int32)
        # perm, eext, pref_t, pref_u, dpi: see state.fill_state
        return [((n,), int32), ((n + 1, m), val), ((n + 1,), val), ((n + 1,), int32), ((n, m), val)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        state[0][:] = x
        fill_state(self.q, self.due, *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        return make_cpu_kernel(nbh, self.output_columns())

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        return "flowshop_neighborhood_alone" if lanes == 1 and self.n >= ALONE_FROM else "flowshop_neighborhood"

    def apply_kernel(self, nbh: Neighborhood) -> str:
        return "flowshop_apply"

    def load_kernel(self, nbh: Neighborhood) -> str:
        return "flowshop_load"

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """flowshop.cu stages its tables in shared memory where they fit (STAGE_SHARED)."""
        if not self.cuda_defines()["STAGE_SHARED"]:
            return f"the tables of {self.instance.name} do not fit in {SHARED_BUDGET:,} bytes of shared memory"
        return None

    def cuda_defines(self) -> dict[str, int | str]:
        # What flowshop.cu stages: q and dpi rows, then the permutation (with its 'no job') and slacks.
        tables = (2 * self.n + 1) * self.m * self.dtype.itemsize
        staged = tables + (self.n + 1) * 4 + self.n * self.dtype.itemsize
        makespan, tardiness, tardy = self.output_columns()
        return {
            "N_JOBS": self.n,
            "N_MACH": self.m,
            "N_OBJ": self.n_obj,
            "COL_MAKESPAN": makespan,
            "COL_TARDINESS": tardiness,
            "COL_TARDY": tardy,
            "VAL": "int" if self.dtype == np.int32 else "long long",
            "STAGE_SHARED": int(staged <= SHARED_BUDGET),
        }
