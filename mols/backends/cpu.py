"""CPU backend: the problem's Numba kernel, parallel over moves on a chosen number of cores. A neighborhood larger
than `chunk_rows` is evaluated chunk by chunk (stage, then evaluate_chunk), so that the whole F need never exist."""

from __future__ import annotations

import platform
from dataclasses import replace

import numba
import numpy as np

from mols.backends.base import Companions, bounds_one_by_one, describe, fill_state, state_layout
from mols.backends.spec import BackendSpec
from mols.backends.threads import Cores, ThreadChoice
from mols.errors import MolsError
from mols.memory import host_array
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

CPU_SPEC = BackendSpec("cpu")  # the default spec
CHUNK_ROWS = 1 << 22  # moves per chunk at most (F of 16 MB for one int32 objective)


def cpu_name() -> str:
    return f"{platform.processor() or platform.machine()} ({numba.config.NUMBA_NUM_THREADS} threads)"


def chunk_size(problem: Problem, n_neighbors: int, chunk_rows: int | None, default: int) -> int:
    """Rows per kernel call: all of them unless the problem's kernels take an id offset."""
    if not problem.kernels.chunkable:
        return n_neighbors
    rows = default if chunk_rows is None else chunk_rows
    if rows < 1:
        raise MolsError(f"chunk size must be at least 1, got {rows}")
    return min(n_neighbors, rows)


class CpuEvaluator(Companions):
    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec = CPU_SPEC):
        threads = spec.threads
        if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise MolsError(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
        self.problem, self.nbh = problem, nbh
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.chunk = chunk_size(problem, self.n_neighbors, spec.chunk_rows, CHUNK_ROWS)
        self.firsts = range(0, self.n_neighbors, self.chunk)  # each chunk's first move
        self.threads = threads or numba.config.NUMBA_NUM_THREADS  # the most it uses (threads.py chooses)
        self.spec = replace(spec, device="cpu")
        self.label = replace(self.spec, threads=self.threads).label  # e.g. cpu x16
        self.cores = Cores(ThreadChoice(numba.config.NUMBA_NUM_THREADS, threads))  # a context: the kernels' threads
        self.device = cpu_name()
        self._kernel = problem.kernels.cpu_kernel(nbh, spec.incremental)
        self._data = problem.kernels.data()
        self.what = describe(problem, nbh, self.n_neighbors)
        self._state = tuple(host_array(shape, dtype, f"a solution's state for {problem.instance_name}", fill=0)
                            for shape, dtype in state_layout(problem, nbh))
        self._F = None  # the whole F, made on the first evaluate()
        self._F_chunk = host_array((self.chunk, problem.n_obj), problem.dtype, f"F for {self.what}")
        self._companions = {}  # key -> what an algorithm made from this evaluator (companion)

    def _run(self, F: np.ndarray, first: int) -> None:
        """Evaluate moves first .. first + len(F) - 1 into F."""
        if self.problem.kernels.chunkable:
            self._kernel(*self._data, *self._state, F, first)
        else:
            self._kernel(*self._data, *self._state, F)

    def evaluate(self, x: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        if self._F is None:
            self._F = self._F_chunk if self.chunk == self.n_neighbors else host_array(
                (self.n_neighbors, self.problem.n_obj), self.problem.dtype, f"F for {self.what}")
        fill_state(self.problem, self.nbh, x, key, self._state)
        with self.cores:
            for first in self.firsts:
                self._run(self._F[first:first + self.chunk], first)
        return self._F

    def stage(self, x: np.ndarray, key: np.ndarray | None = None) -> None:
        """x's state (and the draw key, for a sampled neighborhood) for the evaluate_chunk calls that follow."""
        fill_state(self.problem, self.nbh, x, key, self._state)

    def evaluate_chunk(self, first: int) -> np.ndarray:
        """Moves first .. of the staged solution, a chunk of them (first in firsts), evaluated into the evaluator's
        chunk buffer, which the next call overwrites; call it inside `with cores:`."""
        F = self._F_chunk[:min(self.chunk, self.n_neighbors - first)]
        self._run(F, first)
        return F

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        return bounds_one_by_one(self, xs, keys)
