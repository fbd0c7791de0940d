"""The Q3AP's CUDA kernels (q3ap.cu) against their Numba twins, exactly: both neighborhoods, symmetric and
not, int32 and int64; the device walk (q3ap_apply) and walks side by side in lanes against the host walk;
and whole ITS runs on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, prepare
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems import load_problem
from mols.problems.q3ap import Q3ap, Q3apInstance
from mols.runner import RunConfig, solve
from tests.conftest import device_walks_agree, lane_walks_agree

pytestmark = pytest.mark.gpu
NEIGHBORHOODS = [BASIC, ADVANCED]


def random_q3ap(rng, n, symmetric, high=30):
    a, b, e = (rng.integers(-9, high, size=(n, n)) for _ in range(3))
    if symmetric:
        a, b, e = a + a.T, b + b.T, e + e.T
    return Q3ap(Q3apInstance(f"random{n}", a, b, e))


def same_F(problem, nbh, rng, repeats=3):
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    for _ in range(repeats):
        x = problem.random_solution(rng)
        F = gpu.evaluate(x)
        assert F.dtype == problem.dtype
        np.testing.assert_array_equal(F, cpu.evaluate(x))


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("instance", ["nug12", "nug15", "nug18", "nug22"])
def test_gpu_equals_cpu_on_bundled_instances(rng, nbh, instance):
    same_F(load_problem("q3ap", instance), nbh, rng)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n, symmetric", [(2, True), (3, False), (7, True), (13, False), (40, True), (41, False)])
def test_gpu_equals_cpu_on_random_instances(rng, nbh, n, symmetric):
    same_F(random_q3ap(rng, n, symmetric), nbh, rng)


def test_gpu_equals_cpu_int64(rng):
    problem = random_q3ap(rng, 17, False, high=2**11)
    assert problem.dtype == np.int64
    same_F(problem, ADVANCED, rng)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("symmetric", [True, False])
def test_device_walk_takes_the_host_walks_steps(rng, nbh, symmetric):
    """Tabu walks on the device (batches of 7 steps; q3ap_apply moves the state) and four side by side in
    lanes visit the host walk's solutions, and leave the last solution's state on the device."""
    problem = random_q3ap(rng, 11, symmetric)
    gpu = prepare(problem, nbh, BackendSpec("gpu", walk_batch=7))
    tenure = nbh.n_neighbors(problem.n) // 4
    device_walks_agree(problem, nbh, gpu, rng, tenure)
    lane_walks_agree(problem, nbh, gpu, rng, tenure)


@pytest.mark.parametrize("neighborhood", ["basic", "advanced"])
def test_its_same_on_both_backends(neighborhood):
    runs = [solve(RunConfig("nug12", problem="q3ap", algorithm="its", neighborhood=neighborhood, backend=b,
                            iterations=400, run_length=100, seed=3)) for b in ("cpu", "gpu")]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
def test_fused_selection_chooses_as_the_cpu(rng, nbh):
    """q3ap_neighborhood_select (evaluation and selection in one kernel), the unfused kernels and the CPU choose
    the same best admissible neighbor, some moves forbidden, with and without aspiration."""
    problem = random_q3ap(rng, 12, False)
    evaluators = [prepare(problem, nbh, spec) for spec in ("cpu", BackendSpec("gpu"), BackendSpec("gpu", fused=False))]
    n = nbh.n_neighbors(problem.n)
    forbidden = rng.choice(n, size=n // 3, replace=False)
    for ev in evaluators:
        for idx in forbidden:
            selection_for(ev).forbid(int(idx), 5)
    for _ in range(3):
        x = problem.random_solution(rng)
        threshold = float(evaluators[0].evaluate(x).min()) + 1
        for thr in (threshold, -np.inf):
            chosen = [selection_for(ev)(x, np.ones(1), 2, thr) for ev in evaluators]
            assert len({(i, s) for i, s, _ in chosen}) == 1, chosen
