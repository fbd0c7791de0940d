"""Whole solutions evaluated a population at a time, as genetic algorithms need them (mols.pymoo): X (pop, size) ->
F (pop, n_obj), on the CPU by `Problem.evaluate`, on the GPU by the problem's population kernel where it has one
(the flowshop, QAP/mQAP, TSP/biTSP), else by `Problem.evaluate` on the host."""

from __future__ import annotations

import numpy as np

from mols.backends.spec import BackendSpec
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem


class HostPopulation:
    """Problem.evaluate on the host."""

    device = "cpu"

    def __init__(self, problem: Problem):
        self.problem = problem

    def __call__(self, X) -> np.ndarray:
        return self.problem.evaluate(np.asarray(X).astype(self.problem.encoding.dtype))


class GpuPopulation:
    """The problem's population kernel, compiled with the source of its kernels for `nbh` (by default its first
    supported neighborhood)."""

    device = "gpu"

    def __init__(self, problem: Problem, nbh: Neighborhood | None = None):
        from mols.backends.cuda import compile_kernel, import_cupy
        from mols.backends.launch import BLOCK, problem_defines, problem_source

        if nbh is None and not problem.neighborhoods:
            raise MolsError(f"the {problem.name} problem's population kernel needs a neighborhood to compile with")
        nbh = nbh or problem.neighborhood(problem.neighborhoods[0])
        self.cupy, self.problem, self.block = import_cupy(), problem, BLOCK
        source = problem_source(problem_defines(problem, nbh, BLOCK), problem, nbh)
        self._kernel = compile_kernel(source, problem.kernels.population_kernel)
        self.data = tuple(self.cupy.asarray(a) for a in problem.kernels.population_data())

    def __call__(self, X) -> np.ndarray:
        problem, cupy = self.problem, self.cupy
        X = np.ascontiguousarray(np.asarray(X).astype(problem.encoding.dtype))
        if X.ndim != 2 or X.shape[1] != problem.encoding.size:
            raise MolsError(f"{problem.name}: expected a population of solutions of {problem.encoding.size} values, "
                            f"got an array of shape {X.shape}")
        if X.size and (X.min() < 0 or X.max() >= problem.n):  # the kernels index their tables with the values
            raise MolsError(f"{problem.name}: solutions hold values outside 0..{problem.n - 1}")
        F = cupy.empty((len(X), problem.n_obj), dtype=problem.dtype)
        if len(X):
            grid = (-(-len(X) // self.block),)
            self._kernel(grid, (self.block,), (*self.data, cupy.asarray(X), F, np.int64(len(X))))
        return F.get()


def population_evaluator(problem: Problem, device: str | BackendSpec = "auto") -> HostPopulation | GpuPopulation:
    """X (pop, size) -> F (pop, n_obj) on the device `device` names (auto: the GPU where there is one): the GPU
    where the problem has a population kernel, else the host (the module docstring)."""
    spec = (device if isinstance(device, BackendSpec) else BackendSpec(device)).resolved()
    if spec.device == "gpu" and problem.kernels.population_kernel:
        return GpuPopulation(problem)
    return HostPopulation(problem)
