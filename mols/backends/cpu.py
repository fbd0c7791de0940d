"""CPU backend: the problem's Numba kernel, parallel over moves on a chosen number of cores."""

from __future__ import annotations

import platform

import numba
import numpy as np

from mols.backends.select import best_admissible
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem


def cpu_name() -> str:
    return f"{platform.processor() or platform.machine()} ({numba.config.NUMBA_NUM_THREADS} threads)"


class CpuEvaluator:
    backend = "cpu"

    def __init__(self, problem: Problem, nbh: Neighborhood, threads: int | None = None):
        if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise MolsError(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
        self.problem = problem
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.threads = threads or numba.config.NUMBA_NUM_THREADS
        self.device = cpu_name()
        self._kernel = problem.cpu_kernel(nbh)
        self._data = problem.data()
        self._state = tuple(np.empty(shape, dtype) for shape, dtype in problem.state_layout())
        self._F = np.empty((self.n_neighbors, problem.n_obj), dtype=problem.dtype)
        self.forbidden_until = np.zeros(self.n_neighbors, dtype=np.int64)

    def evaluate(self, x: np.ndarray) -> np.ndarray:
        self.problem.fill_state(np.asarray(x), self._state)
        previous = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            self._kernel(*self._data, *self._state, self._F)
        finally:
            numba.set_num_threads(previous)
        return self._F

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float):
        F = self.evaluate(x)
        idx, score = best_admissible(F, np.asarray(c, dtype=np.float64), self.forbidden_until, step, threshold)
        return int(idx), float(score), F[idx].copy()

    def forbid(self, idx: int, until: int) -> None:
        self.forbidden_until[idx] = until

    def allow_all(self) -> None:
        self.forbidden_until[:] = 0
