"""A mols problem as a pymoo Problem, its populations evaluated by mols' backend, and the operators that fit its
solutions."""

from __future__ import annotations

import numpy as np
from pymoo.core.problem import Problem as PymooProblem

from mols.backends.population import population_evaluator
from mols.backends.spec import BackendSpec
from mols.errors import MolsError
from mols.problems import Problem, load_problem


def variable_bounds(problem: Problem) -> tuple[float, float, type]:
    """pymoo's lower and upper bound of every variable, and the variables' type, for the problem's encoding."""
    enc = problem.encoding
    if enc.name in ("permutation", "permutations"):
        return 0, enc.n - 1, int
    if enc.name == "binary":
        return 0, 1, int
    if enc.name == "integer":
        return 0, enc.k - 1, int
    return enc.low, enc.high, float


class MolsProblem(PymooProblem):
    """A mols problem (a Problem, or a registered name and an instance: MolsProblem("flowshop", "020_10_01"))
    for pymoo: a population X (pop, size) is evaluated at once by mols' backend (`backend`: auto, cpu, gpu;
    backends/population.py: the GPU's population kernel where the problem has one, else Problem.evaluate).
    `mols` is the mols problem, `backend` the resolved device, which mols.pymoo's searches use too."""

    def __init__(self, problem: Problem | str, instance: str | None = None, backend: str = "auto"):
        if isinstance(problem, str):
            if instance is None:
                raise MolsError(f"MolsProblem({problem!r}): give the instance too")
            problem = load_problem(problem, instance)
        low, high, vtype = variable_bounds(problem)
        super().__init__(n_var=problem.encoding.size, n_obj=problem.n_obj, xl=low, xu=high, vtype=vtype)
        self.mols = problem
        self.backend = BackendSpec(backend).resolved().device
        self.population = population_evaluator(problem, self.backend)

    def _evaluate(self, X, out, *args, **kwargs):
        out["F"] = self.population(X).astype(np.float64)


def operators(problem: MolsProblem | Problem) -> dict:
    """Sampling, crossover, mutation and duplicate elimination (pymoo's) that fit the problem's solutions, as
    keywords of pymoo's genetic algorithms: NSGA2(pop_size=100, **operators(problem)). Permutations: random
    permutations, order crossover, inversion mutation; binary vectors: random bits, two-point crossover, bit
    flips; integer vectors: SBX and polynomial mutation rounded; real vectors: SBX and polynomial mutation."""
    from pymoo.operators.crossover.ox import OrderCrossover
    from pymoo.operators.crossover.pntx import TwoPointCrossover
    from pymoo.operators.crossover.sbx import SBX
    from pymoo.operators.mutation.bitflip import BitflipMutation
    from pymoo.operators.mutation.inversion import InversionMutation
    from pymoo.operators.mutation.pm import PM
    from pymoo.operators.repair.rounding import RoundingRepair
    from pymoo.operators.sampling.rnd import (
        BinaryRandomSampling,
        FloatRandomSampling,
        IntegerRandomSampling,
        PermutationRandomSampling,
    )

    name = (problem.mols if isinstance(problem, MolsProblem) else problem).encoding.name
    chosen = {
        "permutation": (PermutationRandomSampling, OrderCrossover, InversionMutation),
        "binary": (BinaryRandomSampling, TwoPointCrossover, BitflipMutation),
        "integer": (IntegerRandomSampling, lambda: SBX(repair=RoundingRepair(), vtype=float),
                    lambda: PM(repair=RoundingRepair(), vtype=float)),
        "real": (FloatRandomSampling, SBX, PM),
    }.get(name)
    if chosen is None:
        raise MolsError(f"mols.pymoo has no genetic operators for {name} solutions")
    sampling, crossover, mutation = (make() for make in chosen)
    return {"sampling": sampling, "crossover": crossover, "mutation": mutation, "eliminate_duplicates": True}
