"""The flowshop's kernel set: the completion-time tables and state (state.py), the Numba kernels (cpu.py) and
flowshop.cu, which evaluates, applies a move, loads a state and serves searches sharing a launch."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mols.neighborhoods import Neighborhood
from mols.problems.flowshop.cpu import make_cpu_kernel
from mols.problems.flowshop.state import cumulative_times, fill_state
from mols.problems.kernels import KernelSet, Layout, every, value_type

if TYPE_CHECKING:
    from mols.problems.flowshop.model import Flowshop

NEIGHBORHOODS = ("insertion", "swap", "3exchange")  # flowshop.cu walks their nbh_segments
SHARED_BUDGET = 44 * 1024  # bytes of shared memory per block for the tables the kernel stages
# Jobs from which one search's neighborhood interleaves 16 positions per thread instead of 4 (flowshop.cu's
# flowshop_neighborhood_alone): faster from 100 jobs, slower below and where searches share the launches.
ALONE_FROM = 100


class FlowshopKernels(KernelSet):
    problem: Flowshop
    cuda_file = Path(__file__).with_name("flowshop.cu")
    cuda_kernel = "flowshop_neighborhood"
    population_kernel = "flowshop_population"
    lane_kernels = True
    apply_kernels = every(NEIGHBORHOODS, "flowshop_apply")
    load_kernels = every(NEIGHBORHOODS, "flowshop_load")

    def __init__(self, problem: Flowshop):
        super().__init__(problem)
        self.q = cumulative_times(problem.instance.p.T, problem.dtype)  # (n + 1, m), see state.py
        self.due = problem.instance.due.astype(problem.dtype)

    def output_columns(self) -> tuple[int, int, int]:
        """The column of F that each objective of OBJECTIVES goes to, -1 where it is not optimised: the kernels'
        compile-time map (cpu.py; flowshop.cu's COL_MAKESPAN, COL_TARDINESS, COL_TARDY)."""
        columns = self.problem.columns
        return tuple(columns.index(c) if c in columns else -1 for c in range(3))  # of the three objectives

    def data(self) -> tuple[np.ndarray, ...]:
        return self.q, self.due

    def state_layout(self) -> Layout:
        n, m, val = self.problem.n, self.problem.m, self.problem.dtype
        int32 = np.dtype(np.int32)
        # perm, eext, pref_t, pref_u, dpi: see state.fill_state
        return [((n,), int32), ((n + 1, m), val), ((n + 1,), val), ((n + 1,), int32), ((n, m), val)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        state[0][:] = x
        fill_state(self.q, self.due, *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        return make_cpu_kernel(nbh, self.output_columns())

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        return "flowshop_neighborhood_alone" if lanes == 1 and self.problem.n >= ALONE_FROM else self.cuda_kernel

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """flowshop.cu stages its tables in shared memory where they fit (STAGE_SHARED)."""
        if not self.cuda_defines()["STAGE_SHARED"]:
            return f"the tables of {self.problem.instance.name} do not fit in {SHARED_BUDGET:,} bytes of shared memory"
        return None

    def cuda_defines(self) -> dict[str, int | str]:
        # What flowshop.cu stages: q and dpi rows, then the permutation (with its 'no job') and slacks.
        n, m, dtype = self.problem.n, self.problem.m, self.problem.dtype
        tables = (2 * n + 1) * m * dtype.itemsize
        staged = tables + (n + 1) * 4 + n * dtype.itemsize
        makespan, tardiness, tardy = self.output_columns()
        return {
            "N_JOBS": n,
            "N_MACH": m,
            "N_OBJ": self.problem.n_obj,
            "COL_MAKESPAN": makespan,
            "COL_TARDINESS": tardiness,
            "COL_TARDY": tardy,
            "VAL": value_type(dtype),
            "STAGE_SHARED": int(staged <= SHARED_BUDGET),
        }
