"""The PPP's kernel set: the state Y = A V and its histogram window (cpu.py), and ppp.cu: one warp per Hamming-1
or 3 neighbor, and Hamming 2 by one thread from bit-packed columns that ppp_pack sorts by Y on the device."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.kernels import KernelSet, Layout, staging_refused, value_type
from mols.problems.ppp import cpu
from mols.problems.ppp.cpu import G1, G2

if TYPE_CHECKING:
    from mols.problems.ppp.model import Ppp

# ppp.cu's Hamming 1 and 3 keep one histogram of N + 1 ints per warp in static shared memory (48 KB at most):
# 4 warps of a 128-thread block (backends/gpu.py's BLOCK) x 2901 ints x 4 bytes = 46.4 KB.
MAX_GPU_N = 2900
WARP = 32


class PppKernels(KernelSet):
    problem: Ppp
    cuda_file = Path(__file__).with_name("ppp.cu")
    cuda_kernel = "ppp_neighborhood"
    chunkable = True

    def __init__(self, problem: Ppp):
        super().__init__(problem)
        instance, n = problem.instance, problem.n
        self.AT = np.ascontiguousarray(instance.a.T)  # (n, m) int8: a column of A is contiguous
        self.HS = problem.HS
        # (n, ceil(m / 32)) uint32, ppp.cu's columns of A as bits: bit l of word w of column j is
        # A[32 w + l, j] < 0
        negative = np.zeros((n, -(-instance.m // 32) * 32), dtype=bool)
        negative[:, :instance.m] = self.AT < 0
        packed = np.packbits(negative.reshape(n, -1, 32), axis=2, bitorder="little")  # (n, W, 4) bytes
        self.ATB = np.ascontiguousarray(packed.view("<u4")[:, :, 0], dtype=np.uint32)
        # ppp.cu's Hamming 2: ppp_pack writes the columns of A as bits in the rows' sorted order into SORTED
        # (W, n) on the device before each evaluation, from the rows of A
        self.SORTED = np.zeros((packed.shape[1], n), dtype=np.uint32)
        self.prepare_kernels = MappingProxyType({"hamming2": ("ppp_pack", self.SORTED.size)})

    def data(self) -> tuple[np.ndarray, ...]:
        return self.AT, self.HS, self.ATB, self.problem.instance.a, self.SORTED  # the Numba kernel reads AT and HS

    def state_layout(self) -> Layout:
        # bits (n,), Y = A V (m,), window (lo, hi, outside, filled), order (m,), levels (T, v0, outside2),
        # ends and residual (n + 8,: T + 2 <= n + 7), NEG (1,): see cpu.fill_state
        n, m, i32 = self.problem.n, self.problem.instance.m, np.dtype(np.int32)
        return [((n,), np.dtype(np.int8)), ((m,), i32), ((4,), i32), ((m,), i32), ((3,), i32), ((n + 8,), i32),
                ((n + 8,), i32), ((1,), np.dtype(np.int64))]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        cpu.fill_state(self.AT, self.HS, np.asarray(x, dtype=np.int8), *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Every neighbor in O(m) from Y, whatever `incremental` says (there is no slower path to offer)."""
        return cpu.neighborhood_kernel(nbh.arity)

    def move_threads(self, nbh: Neighborhood) -> int:
        return 1 if nbh.arity == 2 else WARP

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """ppp.cu's PPP_STAGE_SORTED: Hamming 2's sorted bit columns (Hamming 1 and 3 keep their histograms
        there)."""
        if nbh.arity != 2:
            return f"the ppp problem's {nbh.name} kernel keeps its histograms in shared memory; hamming2 stages its data"
        return staging_refused(f"the sorted bit columns of {self.problem.instance.name}", self.SORTED.nbytes)

    def cuda_defines(self) -> dict[str, int | str]:
        n, instance = self.problem.n, self.problem.instance
        if n > MAX_GPU_N:
            raise MolsError(f"ppp {instance.name}: the gpu backend takes n <= {MAX_GPU_N} columns (one "
                            f"histogram of n + 1 bins per warp in shared memory), got n = {n}; use the cpu")
        return {"N": n, "M": instance.m, "G1": G1, "G2": G2, "VAL": value_type(self.problem.dtype)}
