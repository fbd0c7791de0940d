"""On the device only: the flowshop's tabu walk on the device (flowshop_apply moves the state there) takes
the host walk's steps, and leaves on the device the state of the last solution built from scratch; so do
walks side by side in lanes."""

from __future__ import annotations

import pytest

from mols.backends import BackendSpec, prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.model import Flowshop
from tests.conftest import device_walks_agree, lane_walks_agree, random_instance, with_moves

pytestmark = pytest.mark.gpu
# 3-exchange's 2.6 million moves of 200 jobs left out: the host walks' CPU evaluations of them take minutes.
WALK_CASES = with_moves(sorted(Flowshop.neighborhoods), [(2, 1), (9, 3), (50, 10), (200, 20), (30, 45)], most=10**6)


@pytest.mark.parametrize("name, n, m", WALK_CASES)
def test_device_walk_takes_the_host_walks_steps(rng, name, n, m):
    """Walks on the device in batches of 7 steps (the last one shorter) take the host walk's steps
    (device_walks_agree); m = 45 takes two chunks of lanes in flowshop_apply."""
    problem, nbh = Flowshop(random_instance(rng, n, m)), NEIGHBORHOODS[name]
    gpu = prepare(problem, nbh, BackendSpec("gpu", walk_batch=7))
    device_walks_agree(problem, nbh, gpu, rng, max(1, n // 4))


@pytest.mark.parametrize("name, n, m", WALK_CASES)
def test_walks_side_by_side_take_the_host_walks_steps(rng, name, n, m):
    """Four walks of different lengths in five lanes, batches of 8 steps (lane_walks_agree)."""
    problem, nbh = Flowshop(random_instance(rng, n, m)), NEIGHBORHOODS[name]
    lane_walks_agree(problem, nbh, prepare(problem, nbh, BackendSpec("gpu", walk_batch=8)), rng, max(1, n // 4))


@pytest.mark.parametrize("n, m", [(2, 1), (9, 3), (50, 10), (200, 20), (30, 45)])
def test_load_kernel_makes_the_state_of_a_solution(rng, n, m):
    """flowshop_load (Pareto local search's iterations on the device) writes, over garbage, the state that
    fill_state makes on the host; with its flag 0 it marks the state empty (perm[0] = -1) and writes nothing else,
    and the neighborhood kernel then leaves F as it was."""
    import cupy
    import numpy as np

    from mols.algorithms.pls.device import LOAD_BLOCK
    from mols.backends.cuda import compile_kernel

    problem, nbh = Flowshop(random_instance(rng, n, m)), NEIGHBORHOODS["insertion"]
    gpu = prepare(problem, nbh, "gpu")
    load = compile_kernel(gpu.source, problem.kernels.load_kernels[nbh.name])
    for active in (1, 0, 1):
        for array in gpu.state.device:
            array.fill(7)
        x = problem.random_solution(rng)
        load((1, 1), (LOAD_BLOCK,), (*gpu.data, *gpu.state_args, cupy.asarray(x, dtype=cupy.int32),
                             cupy.full(1, active, dtype=cupy.int32)))
        want = tuple(np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout())
        problem.kernels.fill_state(x, want)
        if not active:
            want = tuple(np.full_like(expected, 7) for expected in want)
            want[0][0] = -1
            gpu.F.fill(5)
            gpu.enqueue_launch()
            assert (gpu.F.get() == 5).all()
        for on_device, expected in zip(gpu.state.device, want):
            np.testing.assert_array_equal(on_device.get(), expected)
