"""The QAP's kernel set: flow matrices and the state of a permutation (cpu.py), Taillard's update on the CPU, and
qap.cu, which evaluates (fused with the selection, whole tabu steps too), applies a move and serves lanes."""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mols.neighborhoods import Neighborhood
from mols.problems.kernels import (
    KernelSet,
    Layout,
    RoundKernel,
    WalkKernel,
    every,
    staging_refused,
    value_type,
)
from mols.problems.qap import cpu, cycles
from mols.problems.qap.rots_round import CpuRounds

if TYPE_CHECKING:
    from mols.problems.qap.model import Qap

NEIGHBORHOODS = ("swap", "3exchange")
MATRIX = np.dtype(np.int32)
# Threads the evaluation kernels aim at: lanes per move = this / moves, a power of two up to 32 and
# n, where whole tabu steps were fastest (reports/qap/).
TARGET_THREADS = 1 << 17
# Facilities from which a whole tabu step keeps the moves' deltas (walk_kernel): Taillard's update pays on
# tai50a and tai100a, not on tai25a (reports/qap/).
TAILLARD_FROM = 40


class QapKernels(KernelSet):
    """The CPU kernel's incremental update is Taillard's: it keeps the previous deltas and updates them after one
    swap (cpu.py); without it, every move is evaluated in O(n), as the GPU does."""

    problem: Qap
    cuda_file = Path(__file__).with_name("qap.cu")
    cuda_kernel = "qap_neighborhood"
    population_kernel = "qap_population"
    lane_kernels = True
    selection_kernels = every(NEIGHBORHOODS, "qap_neighborhood_select")
    apply_kernels = every(NEIGHBORHOODS, "qap_apply")
    taillard_from = TAILLARD_FROM  # facilities from which whole steps keep the moves' deltas (walk_kernel)

    def __init__(self, problem: Qap):
        super().__init__(problem)
        instance = problem.instance
        self.A = np.ascontiguousarray(instance.a, dtype=MATRIX)
        self.AT = np.ascontiguousarray(instance.a.transpose(0, 2, 1), dtype=MATRIX)
        self.b = np.ascontiguousarray(instance.b, dtype=MATRIX)
        self._filled: dict[int, weakref.ref] = {}  # id -> the perm arrays of states fill_state has written

    def data(self) -> tuple[np.ndarray, ...]:
        return self.A, self.AT

    def population_data(self) -> tuple[np.ndarray, ...]:
        return self.A, self.b

    def state_layout(self) -> Layout:
        n = self.problem.n
        # perm, cost, Bp, BpT (empty when symmetric): see cpu.py
        return [((n,), np.dtype(np.int32)), ((self.problem.instance.k,), self.problem.dtype), ((n, n), MATRIX),
                ((0 if self.problem.symmetric else n, n), MATRIX)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """A state this kernel set filled before is updated in O(kn) when x is one swap away (cpu.py); any other
        (a new evaluator's, uninitialised) is rebuilt."""
        perm = state[0]
        known = self._filled.get(id(perm))
        if known is None or known() is not perm:
            perm[:] = -1  # no permutation: cpu.fill_state rebuilds
            key = id(perm)
            self._filled[key] = weakref.ref(perm, lambda _: self._filled.pop(key, None))
        cpu.fill_state(self.A, self.AT, self.b, np.asarray(x, dtype=np.int32), *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Taillard's update serves swaps only: 3-exchange evaluates every move in O(n) (cycles.py)."""
        if nbh.name == "3exchange":
            return cycles.neighborhood
        return cpu.TaillardKernel(self.problem.n, self.problem.instance.k) if incremental else cpu.neighborhood

    def walk_kernel(self, nbh: Neighborhood, block: int) -> WalkKernel:
        """qap.cu's whole steps: from taillard_from facilities qap_taillard_step (a block per `block` moves, then a
        warp per move touching the last swap; the moves' deltas kept in the walk memory), below it qap_walk_step
        (every move in O(n), in the fused selection's blocks; 3-exchange's always)."""
        n = self.problem.n
        moves = n * (n - 1) // 2
        if n < self.taillard_from or nbh.name != "swap":
            return WalkKernel("qap_walk_step", None)
        blocks = -(-moves // block) + -(-(2 * n - 3) * 32 // block)
        return WalkKernel("qap_taillard_step", blocks, self.problem.instance.k * moves * self.problem.dtype.itemsize)

    def rots_round(self, nbh: Neighborhood, threads: int) -> RoundKernel | None:
        """rots_round.cu's qap_rots_round, for swaps and one flow matrix: data A, AT and b; its shared memory holds
        the deltas (rounded up to 8 bytes), the block's reduction, Bp (and BpT), the Ro-TS table and the perm."""
        if nbh.name != "swap" or self.problem.instance.k != 1:
            return None
        n, size = self.problem.n, self.problem.dtype.itemsize
        deltas = -(-(n * (n - 1) // 2) * size // 8) * 8
        matrices = 2 if self.problem.symmetric else 3
        warps = -(-threads // 32)  # a pair of (score, id) of each warp's two bests
        shared = deltas + 2 * warps * (size + 4) + 4 * (matrices * n * n + n)
        cpu = CpuRounds(self.A, self.AT, self.b, self.problem.symmetric)
        return RoundKernel(Path(__file__).with_name("rots_round.cu"), (self.A[0], self.AT[0], self.b), shared, cpu)

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """qap.cu's QAP_STAGE_FLOWS: the flow matrices (and their transposes when asymmetric)."""
        size = self.A.nbytes * (1 if self.problem.symmetric else 2)
        return staging_refused(f"the flow matrices of {self.problem.instance.name}", size)

    @property
    def threads_per_move(self) -> int:
        """Lanes per move (qap.cu's LANES): TARGET_THREADS over the n(n - 1) / 2 swaps, as a power of two
        from 1 to min(32, n), unless a launch set them (Launch.move_threads)."""
        if self.tuned_move_threads:
            return self.tuned_move_threads
        n = self.problem.n
        lanes = max(1, min(32, n, TARGET_THREADS // (n * (n - 1) // 2)))
        return 1 << (lanes.bit_length() - 1)

    def cuda_defines(self) -> dict[str, int | str]:
        return {
            "LANES": self.threads_per_move,
            "N_FAC": self.problem.n,
            "N_OBJ": self.problem.instance.k,
            "VAL": value_type(self.problem.dtype),
            "SYMMETRIC": int(self.problem.symmetric),
        }
