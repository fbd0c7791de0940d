"""Shared fixtures: random flowshop instances, a device walk's trail, and the `gpu` marker that skips cleanly
without a device."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import gpu_available
from mols.problems.flowshop.instance import FlowshopInstance


@pytest.fixture(autouse=True, scope="session")
def tuning_cache(tmp_path_factory):
    """The GPU tuning cache in a folder of the session's (never the user's), and MOLS_TUNE=0: a run that asks for
    --tune tunes only in the tests that lift it (test_techniques_gpu.py's `tuning` fixture)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("MOLS_CACHE_DIR", str(tmp_path_factory.mktemp("mols-cache")))
    patch.setenv("MOLS_TUNE", "0")
    yield
    patch.undo()


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="no CUDA device (CuPy not installed or finds none)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def with_moves(names, shapes, most: int | None = None) -> list[tuple]:
    """(name, *shape) for each neighborhood name and shape (its size n first) where the neighborhood has a move at
    n (3-exchange needs three positions), and at most `most` moves where given (3-exchange's grow as n^3)."""
    from mols.neighborhoods import get_neighborhood

    return [(name, *shape) for name in names for shape in shapes
            if 0 < get_neighborhood(name).size(shape[0]) <= (most or np.inf)]


def random_instance(rng: np.random.Generator, n: int, m: int, p_max: int = 99) -> FlowshopInstance:
    """Processing times in 1..p_max and due dates spread so that some jobs are tardy and some not."""
    p = rng.integers(1, p_max + 1, size=(m, n))
    horizon = int(p.sum(axis=0).mean()) * max(1, n // 2)
    due = rng.integers(0, horizon + 1, size=n)
    return FlowshopInstance(f"random_{n}x{m}", p, due, seed=None, due_dates="random")


def trail(walk) -> list[np.ndarray]:
    """A walk's batches joined: solutions visited, scores, objective vectors."""
    return [np.concatenate(part) for part in zip(*[[a.copy() for a in batch] for batch in walk])]


def device_walks_agree(problem, nbh, gpu, rng: np.random.Generator, tenure: int, steps: int = 30) -> None:
    """Two tabu walks of `steps` steps on the device (walks.device_walk) from random solutions visit the solutions
    that the host walk visits on the CPU, with the same scores and objective vectors (those of the solutions),
    and leave on the device the state of the last solution built from scratch."""
    from mols.algorithms.tabu.walks import device_walk, host_walk
    from mols.backends import prepare

    cpu, c = prepare(problem, nbh, "cpu"), rng.random(problem.n_obj) / 1e3
    for _ in range(2):
        x = problem.random_solution(rng)
        threshold = float(c @ problem.evaluate_one(x))
        got = trail(device_walk(gpu, x, c, threshold, steps, tenure))
        want = trail(host_walk(cpu, nbh, x, c, threshold, steps, tenure))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(got[2], problem.evaluate(got[0]))
        fresh = tuple(np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout())
        problem.kernels.fill_state(got[0][-1], fresh)
        for on_device, expected in zip(gpu.state.device, fresh):
            np.testing.assert_array_equal(on_device.get(), expected)


def lane_walks_agree(problem, nbh, gpu, rng: np.random.Generator, tenure: int) -> None:
    """Walks of 30, 11, 0 and 19 steps side by side in 5 lanes of the device (walks.lane_walker; the fifth lane has
    no walk) take, each, the steps of the host walk from its start on the CPU, and leave in their lanes the
    states of their last solutions built from scratch (a walk of 0 steps: its start's)."""
    from mols.algorithms.tabu.steps import WalkLane
    from mols.algorithms.tabu.walks import host_walk, lane_walker
    from mols.backends import prepare

    cpu, c = prepare(problem, nbh, "cpu"), rng.random((4, problem.n_obj)) / 1e3
    starts = [problem.random_solution(rng) for _ in range(4)]
    walks = [WalkLane(x, c[b], float(c[b] @ problem.evaluate_one(x)), steps, None)
             for b, (x, steps) in enumerate(zip(starts, [30, 11, 0, 19]))]
    walker = lane_walker(gpu, 5)
    got = [[] for _ in walks]
    for batch in walker.lanes(walks, tenure):
        for b, part in batch:
            got[b].append([a.copy() for a in part])
    arrays = len(problem.kernels.state_layout())
    for b, walk in enumerate(walks):
        want = trail(host_walk(cpu, nbh, *walk[:4], tenure)) if walk.steps else None
        last = walk.x
        if want is not None:
            for a, w in zip((np.concatenate(part) for part in zip(*got[b])), want):
                np.testing.assert_array_equal(a, w)
            last = want[0][-1]
        else:
            assert got[b] == []
        fresh = tuple(np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout())
        problem.kernels.fill_state(last, fresh)
        for on_device, expected in zip(walker.ev.state.device[b * arrays:(b + 1) * arrays], fresh):
            np.testing.assert_array_equal(on_device.get(), expected)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)
