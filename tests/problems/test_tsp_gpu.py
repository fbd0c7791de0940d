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


@pytest.mark.parametrize("name", ["swap", "2opt"])
@pytest.mark.parametrize("n", [3, 4, 9, 50, 333])
@pytest.mark.parametrize("kind, k", [("EUC_2D", 1), ("ATT", 1), ("EUC_2D", 2)])
def test_device_walk_takes_the_host_walks_steps(rng, name, n, kind, k):
    """A tabu walk on the device (tsp_*_apply moves the tour there) visits the host walk's tours and leaves on
    the device the state of its last tour built from scratch (device_walks_agree, in batches of 7 steps)."""
    from mols.backends import BackendSpec
    from tests.conftest import device_walks_agree

    problem = random_tsp(rng, n, kind, k=k)
    nbh = NEIGHBORHOODS[name]
    device_walks_agree(problem, nbh, prepare(problem, nbh, BackendSpec("gpu", walk_batch=7)), rng, max(1, n // 4))


@pytest.mark.parametrize("name", ["swap", "2opt"])
@pytest.mark.parametrize("n, k", [(5, 1), (50, 2), (333, 1)])
def test_walks_side_by_side_take_the_host_walks_steps(rng, name, n, k):
    """Four walks of different lengths in five lanes, batches of 8 steps (lane_walks_agree)."""
    from mols.backends import BackendSpec
    from tests.conftest import lane_walks_agree

    problem = random_tsp(rng, n, "EUC_2D", k=k)
    nbh = NEIGHBORHOODS[name]
    lane_walks_agree(problem, nbh, prepare(problem, nbh, BackendSpec("gpu", walk_batch=8)), rng, max(1, n // 4))
