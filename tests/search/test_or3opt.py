"""or3opt (3-opt and Or-opt moves in merged rounds): what -p tsp -a ils runs on the GPU without a strategy, its
population and islands by the instance's size, and its CPU twin's runs through mols.solve, the same for a seed."""

from __future__ import annotations

import numpy as np
import pytest

from mols import solve
from mols.algorithms.ils3opt.strategies import cpu_twin, population_shape
from mols.problems.tsp import load_tsp
from mols.problems.tsp.model import tour_lengths
from mols.runner import RunConfig


def test_or3opt_is_the_default_of_tsp_ils_and_its_twin_on_the_cpu():
    tsp_ils = {"instance": "rat783", "problem": "tsp", "algorithm": "ils"}
    assert RunConfig(**tsp_ils, backend="gpu").strategy == "or3opt"
    cpu = RunConfig(**tsp_ils, backend="cpu")
    assert (cpu.strategy, cpu.backend) == ("cpu-or3opt", "cpu")
    for backend in ("gpu", "cpu"):  # a generic ILS option: that ILS
        assert RunConfig(**tsp_ils, backend=backend, strength=3).strategy is None
    assert RunConfig(**tsp_ils, backend="gpu", strategy="fi-block").strategy == "fi-block"


@pytest.mark.parametrize("strategy, n, given, shape", [
    ("or3opt", 100, (None, None), (2048, 0)), ("or3opt", 783, (None, None), (2048, 256)),
    ("or3opt", 3038, (None, None), (4096, 512)), ("or3opt", 4461, (None, None), (4096, 1024)), ("or3opt", 783, (1000, None), (1000, 8)),
    ("or3opt", 783, (512, 64), (512, 64)), ("cpu-or3opt", 783, (None, None), (16, 16)),
    ("cpu-or3opt", 783, (256, None), (256, 256)), ("cpu-or3opt", 3038, (48, None), (48, 16)),
    ("fi-block", 3038, (None, None), (64, 0)), ("cpu", 783, (8, 4), (8, 4))])
def test_population_and_islands_by_size(strategy, n, given, shape):
    assert population_shape(strategy, n, *given) == shape


@pytest.mark.parametrize("n", [100, 783, 3038])
@pytest.mark.parametrize("population", [1, 16, 256, 1000, 2048])
def test_twins_given_a_population_take_the_same_islands(n, population):
    """The GPU test of or3opt against cpu-or3opt gives a population: both must run it in the same islands (the CPU's
    own shape, 16 of 16, is its default only; it once gave 256 solutions islands of 16 against the GPU's 128)."""
    assert population_shape("cpu-or3opt", n, population, None) == population_shape("or3opt", n, population, None)


def test_twins():
    assert [cpu_twin(s) for s in ("or3opt", "rkbi", "fi-block", "cpu-or3opt")] == ["cpu-or3opt", "cpu-rkbi", "cpu",
                                                                                    "cpu-or3opt"]


def test_cpu_or3opt_through_solve_is_the_same_for_a_seed():
    config = RunConfig(instance="lin318", problem="tsp", algorithm="ils", strategy="cpu-or3opt", iterations=16 * 97,
                       seed=3, backend="cpu")
    runs = [solve(config) for _ in range(2)]
    assert runs[0].details["merge_island"] == 16 and runs[0].details["population"] == 16
    assert runs[0].details["lengths"] == runs[1].details["lengths"]
    tours = [run.archive.X[0] for run in runs]
    np.testing.assert_array_equal(tours[0], tours[1])
    problem = load_tsp("lin318")
    assert tour_lengths(problem.xy[0], tours[0][None], False)[0] == runs[0].details["best_length"]
