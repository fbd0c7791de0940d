"""Populations evaluated whole (backends/population.py): the host path, and on the device the problems'
population kernels against their CPU twin, Problem.evaluate, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends.population import HostPopulation, population_evaluator
from mols.errors import MolsError
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance

KERNEL_INSTANCES = [("flowshop", "020_10_01"), ("flowshop", "200_20_01"), ("qap", "nug12"), ("qap", "tai12a"),
                    ("mqap", "KC10-2fl-1uni"), ("tsp", "kroA100"), ("tsp", "att532"), ("bitsp", "kroAB100")]


def population(problem, rng, size: int = 300) -> np.ndarray:
    return np.stack([problem.random_solution(rng) for _ in range(size)])


def test_the_cpu_evaluates_with_problem_evaluate(rng):
    problem = load_problem("flowshop", "020_05_01")
    ev = population_evaluator(problem, "cpu")
    assert isinstance(ev, HostPopulation)
    X = population(problem, rng, 20)
    np.testing.assert_array_equal(ev(X.astype(np.float64)), problem.evaluate(X))


@pytest.mark.gpu
@pytest.mark.parametrize("name, instance", KERNEL_INSTANCES)
def test_population_kernel_equals_problem_evaluate(rng, name, instance):
    """Random populations (300 solutions: several blocks, the last one partial), and one of a single solution."""
    problem = load_problem(name, instance)
    ev = population_evaluator(problem, "gpu")
    assert ev.device == "gpu"
    for X in (population(problem, rng), population(problem, rng, 1)):
        F = ev(X)
        assert F.dtype == problem.dtype
        np.testing.assert_array_equal(F, problem.evaluate(X))


@pytest.mark.gpu
@pytest.mark.parametrize("objectives", [("makespan", "tardiness"), ("n_tardy", "makespan"), ("total_tardiness",)])
def test_population_kernel_writes_the_objectives_chosen(rng, objectives):
    """--objectives: F has the chosen columns only, in their order (the full problem's columns, picked)."""
    full = load_problem("flowshop", "050_10_01")
    problem = full.with_objectives(objectives)
    X = population(problem, rng)
    columns = [full.objectives.index(full.objective_aliases.get(name, name)) for name in objectives]
    np.testing.assert_array_equal(population_evaluator(problem, "gpu")(X), full.evaluate(X)[:, columns])


@pytest.mark.gpu
def test_flowshop_kernel_with_64_bit_objectives(rng):
    """Processing times large enough that the objectives are int64 (VAL long long)."""
    problem = Flowshop(random_instance(rng, 30, 7, p_max=10**8))
    assert problem.dtype == np.int64
    X = population(problem, rng, 200)
    np.testing.assert_array_equal(population_evaluator(problem, "gpu")(X), problem.evaluate(X))


@pytest.mark.gpu
@pytest.mark.parametrize("name, instance", [("ppp", "73-73"), ("coloring", "myciel3"), ("weierstrass", "2")])
def test_problems_without_a_kernel_evaluate_on_the_host(rng, name, instance):
    problem = load_problem(name, instance)
    ev = population_evaluator(problem, "gpu")
    assert isinstance(ev, HostPopulation)
    X = population(problem, rng, 10)
    np.testing.assert_array_equal(ev(X), problem.evaluate(X))


@pytest.mark.gpu
def test_values_outside_the_tables_are_refused(rng):
    problem = load_problem("flowshop", "020_05_01")
    X = population(problem, rng, 3)
    X[1, 0] = problem.n
    with pytest.raises(MolsError, match="outside"):
        population_evaluator(problem, "gpu")(X)


@pytest.mark.gpu
def test_nsga2_and_pls_through_pymoo_on_the_gpu():
    """NSGA-II evaluated by the flowshop's population kernel gives the CPU's run (same seed, same objective values,
    so the same selections), and PLS-1 from its last population gives the CPU's front."""
    from pymoo.algorithms.moo.nsga2 import NSGA2
    from pymoo.optimize import minimize

    from mols.pymoo import PLS, MolsProblem, operators

    fronts = []
    for backend in ("cpu", "gpu"):
        problem = MolsProblem("flowshop", "050_10_01", backend=backend)
        ga = minimize(problem, NSGA2(pop_size=40, **operators(problem)), ("n_gen", 10), seed=4)
        pls = minimize(problem, PLS(initial=ga.pop), ("n_gen", 100), seed=4)
        fronts.append((ga.pop.get("X"), ga.pop.get("F"), pls.X, pls.F))
    for a, b in zip(*fronts):
        np.testing.assert_array_equal(a, b)
