"""The quadratic assignment problem, with k flow matrices for the multiobjective mQAP (k = 1: QAPLIB)."""

from __future__ import annotations

import weakref
from pathlib import Path

import numpy as np

from mols.encodings import Permutation
from mols.neighborhoods import Neighborhood
from mols.problems.base import Layout, Problem, WalkKernel, integer_dtype, staging_refused
from mols.problems.io import source
from mols.problems.qap import cpu
from mols.problems.qap.instance import QapInstance

MATRIX = np.dtype(np.int32)
# Threads the evaluation kernels aim at: lanes per move = this / moves, a power of two up to 32 and
# n, where whole tabu steps were fastest (reports/qap/).
TARGET_THREADS = 1 << 17
# Facilities from which a whole tabu step keeps the moves' deltas (walk_kernel): Taillard's update pays on
# tai50a and tai100a, not on tai25a (reports/qap/).
TAILLARD_FROM = 40


def objective_dtype(instance: QapInstance) -> np.dtype:
    """int32 when no cost can exceed it (sum |a_ij| max |b| per objective), else int64. Deltas may
    pass the bound on the way; the CUDA kernel sums in unsigned (wrapping) arithmetic, so the
    neighbor's cost is exact whenever it fits."""
    bound = int(np.abs(instance.a).sum(axis=(1, 2)).max()) * int(np.abs(instance.b).max())
    return integer_dtype(bound, source(instance))


class Qap(Problem):
    """Place n facilities on n locations: p(i) is the location of facility i; all objectives minimised.

    The CPU kernel's incremental update is Taillard's: it keeps the previous deltas and updates them
    after one swap (cpu.py); without it, every move is evaluated in O(n), as the GPU does.
    """

    cuda_file = Path(__file__).with_name("qap.cu")
    cuda_kernel = "qap_neighborhood"
    population_kernel = "qap_population"
    lane_kernels = True
    neighborhoods = ("swap",)
    fixed_move_threads = None  # threads per move (the tuning's, backends/gpu.py); None: by the size (threads_per_move)
    taillard_from = TAILLARD_FROM  # facilities from which whole steps keep the moves' deltas (walk_kernel)

    def __init__(self, instance: QapInstance, name: str = "qap"):
        self.instance = instance
        self.name = name
        self.n = instance.n
        self.objectives = ("cost",) if instance.k == 1 else tuple(f"cost_{o + 1}" for o in range(instance.k))
        self.dtype = objective_dtype(instance)
        self.symmetric = instance.symmetric
        self.encoding = Permutation(self.n)
        self.A = np.ascontiguousarray(instance.a, dtype=MATRIX)
        self.AT = np.ascontiguousarray(instance.a.transpose(0, 2, 1), dtype=MATRIX)
        self.b = np.ascontiguousarray(instance.b, dtype=MATRIX)
        self._filled: dict[int, weakref.ref] = {}  # id -> the perm arrays of states fill_state has written

    def _evaluate(self, batch: np.ndarray) -> np.ndarray:
        a = self.instance.a
        return np.stack([np.einsum("kij,ij->k", a, self.instance.b[np.ix_(x, x)]) for x in batch.astype(np.intp)])

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """Through the kernels' state: O(k n^2) in Numba."""
        state = tuple(np.zeros(shape, dtype) for shape, dtype in self.state_layout())
        state[0][:] = -1  # no permutation: a rebuild
        cpu.fill_state(self.A, self.AT, self.b, np.asarray(x, dtype=np.int32), *state)
        return state[1]

    def _project(self, columns: tuple[int, ...]) -> Qap:
        """The mQAP of the flow matrices `columns`, in that order (with_objectives)."""
        inst = self.instance
        return Qap(QapInstance(inst.name, inst.a[list(columns)], inst.b, inst.path), name=self.name)

    def data(self) -> tuple[np.ndarray, ...]:
        return self.A, self.AT

    def population_data(self) -> tuple[np.ndarray, ...]:
        return self.A, self.b

    def state_layout(self) -> Layout:
        n = self.n
        # perm, cost, Bp, BpT (empty when symmetric): see cpu.py
        return [((n,), np.dtype(np.int32)), ((self.instance.k,), self.dtype), ((n, n), MATRIX),
                ((0 if self.symmetric else n, n), MATRIX)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """A state this problem filled before is updated in O(kn) when x is one swap away (cpu.py);
        any other (a new evaluator's, uninitialised) is rebuilt."""
        perm = state[0]
        known = self._filled.get(id(perm))
        if known is None or known() is not perm:
            perm[:] = -1  # no permutation: cpu.fill_state rebuilds
            key = id(perm)
            self._filled[key] = weakref.ref(perm, lambda _: self._filled.pop(key, None))
        cpu.fill_state(self.A, self.AT, self.b, np.asarray(x, dtype=np.int32), *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        return cpu.TaillardKernel(self.n, self.instance.k) if incremental else cpu.neighborhood

    def selection_kernel(self, nbh: Neighborhood) -> str:
        return "qap_neighborhood_select"

    def apply_kernel(self, nbh: Neighborhood) -> str:
        return "qap_apply"

    def walk_kernel(self, nbh: Neighborhood, block: int) -> WalkKernel:
        """qap.cu's whole steps: from taillard_from facilities qap_taillard_step (a block per `block` moves, then a
        warp per move touching the last swap; the moves' deltas kept in the walk memory), below it qap_walk_step
        (every move in O(n), in the fused selection's blocks)."""
        n, moves = self.n, self.n * (self.n - 1) // 2
        if n < self.taillard_from:
            return WalkKernel("qap_walk_step", None)
        blocks = -(-moves // block) + -(-(2 * n - 3) * 32 // block)
        return WalkKernel("qap_taillard_step", blocks, self.instance.k * moves * self.dtype.itemsize)

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """qap.cu's QAP_STAGE_FLOWS: the flow matrices (and their transposes when asymmetric)."""
        size = self.A.nbytes * (1 if self.symmetric else 2)
        return staging_refused(f"the flow matrices of {self.instance.name}", size)

    @property
    def threads_per_move(self) -> int:
        """Lanes per move (qap.cu's LANES): TARGET_THREADS over the n(n - 1) / 2 swaps, as a power of two
        from 1 to min(32, n)."""
        if self.fixed_move_threads:
            return self.fixed_move_threads
        lanes = max(1, min(32, self.n, TARGET_THREADS // (self.n * (self.n - 1) // 2)))
        return 1 << (lanes.bit_length() - 1)

    def cuda_defines(self) -> dict[str, int | str]:
        return {
            "LANES": self.threads_per_move,
            "N_FAC": self.n,
            "N_OBJ": self.instance.k,
            "VAL": "int" if self.dtype == np.int32 else "long long",
            "SYMMETRIC": int(self.symmetric),
        }

