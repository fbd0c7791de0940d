"""CPU backend: the problem's Numba kernel, parallel over moves on a chosen number of cores. A neighborhood larger
than `chunk_rows` is evaluated and selected chunk by chunk, so that the whole F never has to exist."""

from __future__ import annotations

import platform
from dataclasses import replace

import numba
import numpy as np

from mols.backends.base import bounds_one_by_one, describe, fill_state, state_layout
from mols.algorithms.tabu.select import TABU_DTYPE, best_pairs_parallel, choose_on_host
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


class CpuEvaluator:
    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec = CPU_SPEC):
        threads = spec.threads
        if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise MolsError(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
        self.problem, self.nbh = problem, nbh
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.chunk = chunk_size(problem, self.n_neighbors, spec.chunk_rows, CHUNK_ROWS)
        self.threads = threads or numba.config.NUMBA_NUM_THREADS  # the most it uses (threads.py chooses)
        self.spec = replace(spec, device="cpu")
        self.label = replace(self.spec, threads=self.threads).label  # e.g. cpu x16
        self._cores = Cores(ThreadChoice(numba.config.NUMBA_NUM_THREADS, threads))
        self.device = cpu_name()
        self._kernel = problem.kernels.cpu_kernel(nbh, spec.incremental)
        self._data = problem.kernels.data()
        self.what = describe(problem, nbh, self.n_neighbors)
        self._state = tuple(host_array(shape, dtype, f"a solution's state for {problem.instance_name}", fill=0)
                            for shape, dtype in state_layout(problem, nbh))
        self._F = None  # the whole F, made on the first evaluate()
        self._F_chunk = host_array((self.chunk, problem.n_obj), problem.dtype, f"F for {self.what}")
        self._forbidden = None  # tabu memory, made on the first forbid or selection

    @property
    def forbidden_until(self) -> np.ndarray:
        """(n_neighbors,) TABU_DTYPE: the step from which each neighbor is admissible again (tabu memory)."""
        if self._forbidden is None:
            self._forbidden = host_array((self.n_neighbors,), TABU_DTYPE, f"the tabu memory of {self.what}", fill=0)
        return self._forbidden

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
        with self._cores:
            for first in range(0, self.n_neighbors, self.chunk):
                self._run(self._F[first:first + self.chunk], first)
        return self._F

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        return bounds_one_by_one(self, xs, keys)

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float,
                      key: np.ndarray | None = None):
        if not self.problem.kernels.chunkable:
            return choose_on_host(self.evaluate(x, key), c, self.forbidden_until, step, threshold)
        return self._best_by_chunks(x, np.asarray(c, dtype=np.float64), step, threshold, key)

    def _best_by_chunks(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None):
        """The same choice as best_admissible over the whole F: in each chunk the best admissible and
        the best move; strictly better ones replace earlier chunks' (ties go to the lowest id)."""
        fill_state(self.problem, self.nbh, x, key, self._state)
        best, fallback = (np.inf, -1, None), (np.inf, -1, None)  # (score, id, F row)
        for first in range(0, self.n_neighbors, self.chunk):
            F = self._F_chunk[:min(self.chunk, self.n_neighbors - first)]
            with self._cores:
                self._run(F, first)
                b, bs, a, as_ = best_pairs_parallel(F, c, self.forbidden_until[first:first + len(F)], step, threshold)
            if b >= 0 and bs < best[0]:
                best = (bs, first + b, F[b].copy())
            if as_ < fallback[0]:
                fallback = (as_, first + a, F[a].copy())
        score, idx, f = best if best[1] >= 0 else fallback
        return int(idx), float(score), f

    def device_walk(self, x, c, threshold, steps, tenure, keys=None) -> None:
        """None: no device, so tabu search walks from the host, through best_weighted and forbid."""

    def lane_walk(self, lanes: int) -> None:
        """None: the walks of a search run one after another (a batch of searches spreads over the cores
        instead, mols/batch.py)."""

    def forbid(self, idx: int, until: int) -> None:
        self.forbidden_until[idx] = until

    def allow_all(self) -> None:
        self.forbidden_until[:] = 0
