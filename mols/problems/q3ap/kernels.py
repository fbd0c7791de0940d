"""The Q3AP's kernel sets: in product form, the gathered matrices of a pair of permutations (cpu.py) and q3ap.cu; in
general form, the dense costs read at the pair's triples (cpu.py) and q3ap_general.cu. Each evaluates (fused with the
selection too), applies a move and serves searches sharing a launch."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mols.neighborhoods import Neighborhood
from mols.neighborhoods.pair_swaps import SWAPS
from mols.problems.kernels import KernelSet, Layout, every, value_type
from mols.problems.q3ap import cpu

if TYPE_CHECKING:
    from mols.problems.q3ap.model import Q3ap, Q3apGeneral

MATRIX = np.dtype(np.int32)
SWAPS_CUH = Path(__file__).with_name("swaps.cuh")  # what both forms' CUDA sources share


class Q3apSwapKernels(KernelSet):
    """What both forms' kernel sets share: their CUDA source after swaps.cuh, its constants, lanes."""

    lane_kernels = True

    def cuda_source(self, nbh: Neighborhood) -> str:
        return SWAPS_CUH.read_text() + super().cuda_source(nbh)

    def cuda_defines(self) -> dict[str, int | str]:
        return {"N_POS": self.problem.n, "VAL": value_type(self.problem.dtype),
                "SYMMETRIC": int(self.problem.symmetric)}


class Q3apKernels(Q3apSwapKernels):
    """The product form: every move evaluated in O(n) from the state (cpu.py, q3ap.cu)."""

    problem: Q3ap
    cuda_file = Path(__file__).with_name("q3ap.cu")
    cuda_kernel = "q3ap_neighborhood"
    selection_kernels = every(SWAPS, "q3ap_neighborhood_select")
    apply_kernels = every(SWAPS, "q3ap_apply")

    def __init__(self, problem: Q3ap):
        super().__init__(problem)
        instance = problem.instance
        self.A, self.B, self.E = (np.ascontiguousarray(m, dtype=MATRIX) for m in (instance.a, instance.b, instance.e))

    def data(self) -> tuple[np.ndarray, ...]:
        return (self.A,)

    def state_layout(self) -> Layout:
        n = self.problem.n
        # x, cost, Bp, Eq: see cpu.py
        return [((2 * n,), np.dtype(np.int32)), ((1,), self.problem.dtype), ((n, n), MATRIX), ((n, n), MATRIX)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """O(n^2): Bp and Eq gathered from B and E, and the cost summed from them."""
        x_state, cost, Bp, Eq = state
        n = self.problem.n
        p, q = x[:n].astype(np.intp), x[n:].astype(np.intp)
        x_state[:] = x
        Bp[:] = self.B[np.ix_(p, p)]
        Eq[:] = self.E[np.ix_(q, q)]
        cost[0] = (self.A.astype(np.int64) * Bp * Eq.astype(np.int64)).sum()

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Every move is O(n) from the state: there is no separate incremental kernel."""
        return cpu.neighborhood_kernel(SWAPS[nbh.name], self.problem.symmetric)


class Q3apGeneralKernels(Q3apSwapKernels):
    """The general form: every move evaluated in O(n) reads of C from the solution itself (cpu.py,
    q3ap_general.cu). Data: C as the (n^3, n^3) matrix of triples and b (n^3,), int32; state: x and its cost."""

    problem: Q3apGeneral
    cuda_file = Path(__file__).with_name("q3ap_general.cu")
    cuda_kernel = "q3ap_general_neighborhood"
    selection_kernels = every(SWAPS, "q3ap_general_neighborhood_select")
    apply_kernels = every(SWAPS, "q3ap_general_apply")

    def data(self) -> tuple[np.ndarray, ...]:
        instance = self.problem.instance
        return instance.matrix, instance.b.reshape(-1)

    def state_layout(self) -> Layout:
        return [((2 * self.problem.n,), np.dtype(np.int32)), ((1,), self.problem.dtype)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """O(n^2): x and its cost (the reference evaluation)."""
        x_state, cost = state
        x_state[:] = x
        cost[0] = self.problem.evaluate(x)[0]

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Every move is O(n) from x: there is no separate incremental kernel."""
        return cpu.general_kernel(SWAPS[nbh.name], self.problem.symmetric)
