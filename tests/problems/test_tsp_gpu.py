"""TSP on the GPU equals the CPU exactly: F for swap and 2-opt, EUC_2D and ATT, one and two objectives."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from tests.problems.test_tsp_model import random_tsp

pytestmark = pytest.mark.gpu


def assert_same(problem, name, rng, solutions=3):
    nbh = NEIGHBORHOODS[name]
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    for _ in range(solutions):
        x = problem.random_solution(rng)
        np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))


@pytest.mark.parametrize("name", ["swap", "2opt"])
@pytest.mark.parametrize("n", [3, 4, 5, 7, 50, 333])
@pytest.mark.parametrize("kind, k", [("EUC_2D", 1), ("ATT", 1), ("EUC_2D", 2)])
def test_gpu_equals_cpu_random(rng, name, n, kind, k):
    assert_same(random_tsp(rng, n, kind, k=k), name, rng)


@pytest.mark.parametrize("name", ["swap", "2opt"])
@pytest.mark.parametrize("problem, instance", [("tsp", "kroA100"), ("tsp", "att532"), ("tsp", "pr2392"),
                                               ("bitsp", "kroAB200")])
def test_gpu_equals_cpu_bundled(rng, name, problem, instance):
    assert_same(load_problem(problem, instance), name, rng, solutions=1)


def test_gpu_equals_cpu_int64(rng):
    problem = random_tsp(rng, 60, side=1e8)
    assert problem.dtype == np.int64
    assert_same(problem, "2opt", rng)
