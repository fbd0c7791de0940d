"""What a problem gives mols: a reference evaluation and the pieces its neighborhood kernels need."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from mols.errors import MolsError
from mols.neighborhoods import Neighborhood

Layout = list[tuple[tuple[int, ...], np.dtype]]
INT32_MAX, INT64_MAX = int(np.iinfo(np.int32).max), int(np.iinfo(np.int64).max)


def integer_dtype(bound: int, what: str) -> np.dtype:
    """The objective dtype for values proved to stay within +-bound (a Python int, computed from the
    data): int32 where it fits, else int64; MolsError naming `what` where even int64 could overflow."""
    if bound > INT64_MAX:
        raise MolsError(f"{what}: objective values could reach {bound:.3g}, beyond the 64-bit integers mols "
                        f"computes with ({INT64_MAX:.3g}); scale the data down")
    return np.dtype(np.int32 if bound <= INT32_MAX else np.int64)


class Problem(ABC):
    """A permutation problem whose neighborhoods the backends evaluate whole.

    Kernels (the Numba function from `cpu_kernel` and the CUDA kernel `cuda_kernel` in
    `cuda_file`) all take the same arguments: `*data(), *state, F, ...` where `state` are arrays
    laid out by `state_layout()` and filled for the current solution by `fill_state`, and
    F (n_neighbors, n_obj) receives the objective vectors.
    """

    name: str
    instance: Any  # the parsed instance; it has a .name
    objectives: tuple[str, ...]
    n: int
    dtype: np.dtype
    cuda_file: Path
    cuda_kernel: str
    neighborhoods: tuple[str, ...] | None = None  # the neighborhoods its kernels support; None: every one
    chunkable: bool = False  # kernels take an id offset: (..., F, n_moves, first) on CUDA, (..., F, first) in Numba
    threads_per_move: int = 1  # CUDA threads that share a move in the evaluation kernels; grids hold that many per move

    def kernel_name(self, nbh: Neighborhood) -> str:
        """The CUDA kernel of `cuda_file` that evaluates `nbh`."""
        return self.cuda_kernel

    def selection_kernel(self, nbh: Neighborhood) -> str | None:
        """A kernel of `cuda_file`, compiled after backends/select.cu, that evaluates `nbh` and does
        select_partial's work in one pass without writing F: arguments (*data, *state, n_moves, first,
        then select_partial's from c on). None: the kernel writes F, then select_partial reads it."""
        return None

    def apply_kernel(self, nbh: Neighborhood) -> str | None:
        """A kernel of `cuda_file` that moves the state on the device to the neighbor chosen by the
        selection (backends/gpu_walk.py): arguments (*state, move id, its objective vector), both on
        the device; one block. With it a tabu walk runs on the device; None: the host applies each move."""
        return None

    @property
    def n_obj(self) -> int:
        return len(self.objectives)

    @property
    def instance_name(self) -> str:
        """The instance's name, as results folders and reports show it."""
        return self.instance.name

    def random_solution(self, rng: np.random.Generator) -> np.ndarray:
        return rng.permutation(self.n).astype(np.int32)

    @abstractmethod
    def evaluate(self, X: np.ndarray) -> np.ndarray:
        """Reference full evaluation: X (B, n) or (n,) -> F (B, n_obj) or (n_obj,)."""

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """The objective vector (n_obj,) of one solution, as the searches need it; a problem may
        override this with a faster path, tested against `evaluate`."""
        return np.asarray(self.evaluate(x), dtype=self.dtype)

    @abstractmethod
    def data(self) -> tuple[np.ndarray, ...]:
        """Constant arrays, uploaded once per run."""

    @abstractmethod
    def state_layout(self) -> Layout:
        """Shapes and dtypes of the per-solution arrays the kernels read."""

    @abstractmethod
    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """Write the per-solution arrays for solution x into `state`."""

    @abstractmethod
    def cpu_kernel(self, nbh: Neighborhood) -> Callable:
        """A Numba function evaluating the whole neighborhood: (*data, *state, F) -> None."""

    @abstractmethod
    def cuda_defines(self) -> dict[str, int | str]:
        """Compile-time constants of the CUDA kernel, prepended as #define lines."""
