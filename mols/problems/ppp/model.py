"""The permuted perceptron problem as a binary problem: bit b_j gives V_j = 2 b_j - 1; minimise Knudsen and
Meier's cost, which is 0 exactly on the solutions (target 0)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.encodings import BinaryVector
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Layout, Problem, integer_dtype, staging_refused
from mols.problems.ppp import cpu
from mols.problems.ppp.cpu import G1, G2
from mols.problems.ppp.instance import PppInstance

# ppp.cu's Hamming 1 and 3 keep one histogram of N + 1 ints per warp in static shared memory (48 KB at most):
# 4 warps of a 128-thread block (backends/gpu.py's BLOCK) x 2901 ints x 4 bytes = 46.4 KB.
MAX_GPU_N = 2900
WARP = 32


class Ppp(Problem):
    """Find V with A V >= 0 and A V = S as multisets. Kernels: one Hamming-k neighbor in O(m) from the
    state Y = A V (cpu.py; ppp.cu: one warp per neighbor), and on the GPU Hamming 2 in O(m / 32 + the
    values of Y) by one thread, from bit-packed columns whose rows ppp_pack sorts by Y (ppp.cu)."""

    name = "ppp"
    objectives = ("cost",)
    cuda_file = Path(__file__).with_name("ppp.cu")
    cuda_kernel = "ppp_neighborhood"
    neighborhoods = ("hamming1", "hamming2", "hamming3")
    chunkable = True
    target = 0

    def __init__(self, instance: PppInstance):
        self.instance = instance
        self.n = instance.n
        self.encoding = BinaryVector(instance.n)
        # |Y_i| <= n: the sign term is at most 2 G1 m n, the histogram term at most 2 G2 m
        self.dtype = integer_dtype(2 * G1 * instance.m * instance.n + 2 * G2 * instance.m, f"ppp {instance.name}")
        self.AT = np.ascontiguousarray(instance.a.T)  # (n, m) int8: a column of A is contiguous
        self.HS = instance.histogram
        # (n, ceil(m / 32)) uint32, ppp.cu's columns of A as bits: bit l of word w of column j is
        # A[32 w + l, j] < 0
        negative = np.zeros((self.n, -(-instance.m // 32) * 32), dtype=bool)
        negative[:, :instance.m] = self.AT < 0
        packed = np.packbits(negative.reshape(self.n, -1, 32), axis=2, bitorder="little")  # (n, W, 4) bytes
        self.ATB = np.ascontiguousarray(packed.view("<u4")[:, :, 0], dtype=np.uint32)
        # ppp.cu's Hamming 2: ppp_pack writes the columns of A as bits in the rows' sorted order into SORTED
        # (W, n) on the device before each evaluation, from the rows of A
        self.SORTED = np.zeros((packed.shape[1], self.n), dtype=np.uint32)

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

    def data(self) -> tuple[np.ndarray, ...]:
        return self.AT, self.HS, self.ATB, self.instance.a, self.SORTED  # the Numba kernel reads AT and HS

    def state_layout(self) -> Layout:
        # bits (n,), Y = A V (m,), window (lo, hi, outside, filled), order (m,), levels (T, v0, outside2),
        # ends and residual (n + 8,: T + 2 <= n + 7), NEG (1,): see cpu.fill_state
        n, m, i32 = self.n, self.instance.m, np.dtype(np.int32)
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
        """ppp.cu's PPP_STAGE_SORTED: Hamming 2's sorted bit columns (Hamming 1 and 3 keep their histograms there)."""
        if nbh.arity != 2:
            return f"the ppp problem's {nbh.name} kernel keeps its histograms in shared memory; hamming2 stages its data"
        return staging_refused(f"the sorted bit columns of {self.instance.name}", self.SORTED.nbytes)

    def prepare_kernel(self, nbh: Neighborhood) -> tuple[str, int] | None:
        return ("ppp_pack", self.SORTED.size) if nbh.arity == 2 else None

    def cuda_defines(self) -> dict[str, int | str]:
        if self.n > MAX_GPU_N:
            raise MolsError(f"ppp {self.instance.name}: the gpu backend takes n <= {MAX_GPU_N} columns (one "
                            f"histogram of n + 1 bins per warp in shared memory), got n = {self.n}; use the cpu")
        return {"N": self.n, "M": self.instance.m, "G1": G1, "G2": G2,
                "VAL": "int" if self.dtype == np.int32 else "long long"}
