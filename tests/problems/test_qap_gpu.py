"""The CUDA kernel (qap.cu) against its Numba twin, exactly: symmetric and asymmetric, int32 (with
wrapping partial sums) and int64, one and several flow matrices; and a tabu run on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, prepare
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.problems.qap.instance import QapInstance
from mols.problems.qap.model import Qap
from mols.runner import RunConfig, solve
from tests.conftest import device_walks_agree, lane_walks_agree

SWAP = get_neighborhood("swap")
pytestmark = pytest.mark.gpu


def walk_agrees(problem, rng, steps: int = 6) -> None:
    cpu, gpu = prepare(problem, SWAP, "cpu"), prepare(problem, SWAP, "gpu")
    x = problem.random_solution(rng)
    for step in range(steps):
        np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
        x = problem.random_solution(rng) if step == 2 else SWAP.apply(x, int(rng.integers(gpu.n_neighbors)))


@pytest.mark.parametrize("problem, instance", [("qap", "tai12a"), ("qap", "tai100a"), ("qap", "tai150b"),
                                               ("qap", "tai256c"), ("mqap", "KC10-2fl-1uni"),
                                               ("mqap", "KC30-3fl-2rl")])
def test_gpu_equals_cpu_on_bundled_instances(rng, problem, instance):
    walk_agrees(load_problem(problem, instance), rng)


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("k", [1, 2])
def test_gpu_equals_cpu_on_random_instances(rng, symmetric, k):
    n = 37
    a, b = rng.integers(-50, 100, size=(k, n, n)), rng.integers(0, 1000, size=(n, n))
    if symmetric:
        a, b = a + a.transpose(0, 2, 1), b + b.T
    walk_agrees(Qap(QapInstance("random", a, b)), rng)


@pytest.mark.parametrize("lanes", [1, 2, 8, 32])
@pytest.mark.parametrize("fused", [True, False])
def test_lanes_sharing_a_move_give_the_cpus_costs_and_choice(rng, lanes, fused):
    """Several threads per move (LANES), on a size no lane count divides and with a last warp past the
    end: F and the device-side selection equal the CPU's."""
    n = 37
    problem = Qap(QapInstance("random", rng.integers(-50, 100, size=(2, n, n)), rng.integers(0, 1000, (n, n))))
    problem.kernels.tuned_move_threads = lanes
    cpu, gpu = prepare(problem, SWAP, "cpu"), prepare(problem, SWAP, BackendSpec("gpu", fused=fused))
    c = rng.random(2)
    for _ in range(3):
        x = problem.random_solution(rng)
        np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
        got, want = selection_for(gpu)(x, c, 0, np.inf), selection_for(cpu)(x, c, 0, np.inf)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])


def test_gpu_large_int32_costs(rng):
    """Costs near 2^30 that still fit int32 (the bound sum |a| max |b| is under 2^31)."""
    n = 20
    a = rng.integers(0, 2**11, size=(1, n, n))
    b = rng.integers(0, 2**12, size=(n, n))
    problem = Qap(QapInstance("big", a, b))
    assert problem.dtype == np.int32
    walk_agrees(problem, rng)


@pytest.mark.parametrize("problem, instance, algorithm", [("qap", "tai20a", "tabu"), ("qap", "tai20a", "its"),
                                                          ("mqap", "KC10-2fl-1uni", "tabu")])
def test_tabu_same_on_both_backends(problem, instance, algorithm):
    """The GPU walks on the device (gpu_walk.py), the CPU from the host: the same archive."""
    runs = [solve(RunConfig(instance, problem=problem, algorithm=algorithm, backend=b, iterations=300, seed=2))
            for b in ("cpu", "gpu")]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("instance", ["tai25a", "tai150b", "KC10-2fl-1uni"])
def test_gpu_selection_equals_cpu(rng, fused, instance):
    """The selection with forbids and aspiration: the fused kernel (qap_neighborhood_select) and
    the F-writing kernel with select.cu pick the CPU's move, score and costs."""
    problem = load_problem("mqap" if instance.startswith("KC") else "qap", instance)
    cpu, gpu = prepare(problem, SWAP, "cpu"), prepare(problem, SWAP, BackendSpec("gpu", fused=fused))
    c = rng.random(problem.n_obj) / 1e3
    x, best = problem.random_solution(rng), np.inf
    for step in range(20):
        got, want = selection_for(gpu)(x, c, step, best), selection_for(cpu)(x, c, step, best)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])
        for ev in (cpu, gpu):
            selection_for(ev).forbid(SWAP.inverse(want[0], problem.n), step + 1 + problem.n // 2)
        best = min(best, want[1])
        x = SWAP.apply(x, want[0])


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("instance", ["tai25a", "tai150b", "KC10-2fl-1uni", "asymmetric"])
def test_device_walk_takes_the_host_walks_steps(rng, fused, instance):
    """Two tabu walks run on the device (batches of 7 steps, the last one shorter) visit the solutions
    that the host walk visits on the CPU, with the same scores and costs. After each, the state on the
    device (moved by qap_apply) is the last solution's state built from scratch. So do four walks side by
    side in lanes (lane_walks_agree)."""
    if instance == "asymmetric":
        n = 30
        problem = Qap(QapInstance("random", rng.integers(-50, 100, size=(2, n, n)), rng.integers(0, 1000, (n, n))))
        assert not problem.symmetric
    else:
        problem = load_problem("mqap" if instance.startswith("KC") else "qap", instance)
    gpu = prepare(problem, SWAP, BackendSpec("gpu", fused=fused, walk_batch=7))
    device_walks_agree(problem, SWAP, gpu, rng, problem.n // 4)
    lane_walks_agree(problem, SWAP, gpu, rng, problem.n // 4)


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 41])
def test_device_walk_keeps_its_deltas_over_long_walks(rng, symmetric, n):
    """The whole-step kernel qap_taillard_step (here on every size) keeps every move's deltas from step to step
    (Taillard's update; the moves touching the last swap, every move on n <= 3, afresh by a warp each): over walks
    of 400 steps in int32 with wrapping partial sums, the host walk's steps, and the state built from scratch at
    the end."""
    a, b = rng.integers(-2**9, 2**9, size=(2, n, n)), rng.integers(0, 2**10, size=(n, n))
    if symmetric:
        a, b = a + a.transpose(0, 2, 1), b + b.T
    problem = Qap(QapInstance("random", a, b))
    assert problem.symmetric == symmetric and problem.dtype == np.int32
    problem.kernels.taillard_from = 2
    device_walks_agree(problem, SWAP, prepare(problem, SWAP, BackendSpec("gpu", walk_batch=64)), rng, n // 3, 400)
