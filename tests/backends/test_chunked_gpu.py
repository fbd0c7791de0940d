"""Chunked evaluation on the GPU equals the unchunked one and the CPU: F, and the device-side selection."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec
from mols.backends.cpu import CpuEvaluator
from mols.backends.gpu import GpuEvaluator
from mols.errors import BackendError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.tsp.instance import random_instance
from mols.problems.tsp.model import Tsp
from tests.backends.test_chunked import selection_cases

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("name", ["swap", "2opt"])
@pytest.mark.parametrize("chunk", [1, 7, 300, None])
def test_gpu_chunked_equals_cpu(rng, name, chunk, fused):
    problem, nbh = Tsp(random_instance(40, 1)), NEIGHBORHOODS[name]
    cpu, gpu = CpuEvaluator(problem, nbh), GpuEvaluator(problem, nbh, BackendSpec("gpu", chunk_rows=chunk, fused=fused))
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
    c = np.array([1.0])
    for step, threshold, forbidden in selection_cases(rng, cpu.n_neighbors):
        selection_for(cpu).forbidden_until[:] = forbidden
        selection_for(gpu).allow_all()
        for idx in np.flatnonzero(forbidden):
            selection_for(gpu).forbid(int(idx), int(forbidden[idx]))
        a, b = selection_for(cpu)(x, c, step, threshold), selection_for(gpu)(x, c, step, threshold)
        assert a[:2] == b[:2]
        np.testing.assert_array_equal(a[2], b[2])


@pytest.mark.parametrize("fused", [True, False])
def test_two_objectives_chunked(rng, fused):
    problem, nbh = load_problem("bitsp", "kroAB100"), NEIGHBORHOODS["2opt"]
    cpu, gpu = CpuEvaluator(problem, nbh, BackendSpec("cpu", chunk_rows=1000)), GpuEvaluator(problem, nbh, BackendSpec("gpu", chunk_rows=999, fused=fused))
    x = problem.random_solution(rng)
    c = np.array([0.3, 0.7])
    np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
    a, b = selection_for(cpu)(x, c, 0, -np.inf), selection_for(gpu)(x, c, 0, -np.inf)
    assert a[:2] == b[:2]
    np.testing.assert_array_equal(a[2], b[2])


def test_chunked_f_never_stays_whole_on_the_device(rng):
    problem = Tsp(random_instance(30, 2))
    gpu = GpuEvaluator(problem, NEIGHBORHOODS["swap"], BackendSpec("gpu", chunk_rows=100))
    with pytest.raises(BackendError, match="in chunks of 100"):
        gpu.evaluate_device(problem.random_solution(rng))


@pytest.mark.parametrize("chunk, fused", [(None, True), (97, True), (97, False)])
def test_gpu_tabu_equals_cpu_tabu(chunk, fused):
    problem, nbh = Tsp(random_instance(60, 5)), NEIGHBORHOODS["2opt"]
    runs = [AggregatedTabu(problem, nbh, ev, 60, np.random.default_rng(1)).run()
            for ev in (CpuEvaluator(problem, nbh), GpuEvaluator(problem, nbh, BackendSpec("gpu", chunk_rows=chunk, fused=fused)))]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("name", ["swap", "2opt"])
def test_rl5915_selection_equals_cpu(rng, name, fused):
    """17.5 million neighbors in chunks on both backends: the same choice."""
    problem, nbh = load_problem("tsp", "rl5915"), NEIGHBORHOODS[name]
    cpu, gpu = CpuEvaluator(problem, nbh), GpuEvaluator(problem, nbh, BackendSpec("gpu", chunk_rows=5_000_000, fused=fused))
    x = problem.random_solution(rng)
    forbidden = rng.choice(cpu.n_neighbors, 100, replace=False)
    for idx in forbidden:
        selection_for(cpu).forbid(int(idx), 3)
        selection_for(gpu).forbid(int(idx), 3)
    a, b = selection_for(cpu)(x, np.array([1.0]), 1, -np.inf), selection_for(gpu)(x, np.array([1.0]), 1, -np.inf)
    assert a[:2] == b[:2]
