"""MirroredArchive (host members, vectors mirrored on the device) behaves as the host Archive."""

from __future__ import annotations

import numpy as np
import pytest

from mols.archive import Archive, dominates, nondominated
from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("k, dtype", [(2, np.int32), (3, np.int64)])
def test_same_members_order_and_acceptance_as_the_host_archive(rng, k, dtype):
    import cupy

    from mols.archive.mirrored import MirroredArchive

    host, mirrored = Archive(k, 4, dtype), MirroredArchive(k, 4, dtype)
    for step in range(60):
        F = rng.integers(0, 6 + step // 6, size=(int(rng.integers(0, 30)), k)).astype(dtype)
        X = rng.integers(0, 100, size=(len(F), 4))
        if step % 2:
            np.testing.assert_array_equal(mirrored.add(F, X), host.add(F, X))
        else:  # the two-step path PLS takes, with the candidates on the device
            result = mirrored.offer_device(cupy.asarray(F))
            mirrored.commit(result, X[result.ids])
            np.testing.assert_array_equal(result.ids, np.flatnonzero(host.add(F, X)))
        mirrored.visited[:] = host.visited[:] = rng.random(len(host)) < 0.5
        for part in ("F", "X", "visited"):
            np.testing.assert_array_equal(getattr(mirrored, part), getattr(host, part))
        np.testing.assert_array_equal(mirrored.device.F.get(), host.F)


def test_members_held_are_mirrored_on_the_device(rng):
    """hold() (a checkpoint's start restored) gives the host Archive's members, visited flags and all, with their
    vectors on the device in buffers grown to take them; offers then go on as in the host Archive."""
    from mols.archive.mirrored import MirroredArchive

    host, mirrored = Archive(3, 4, np.int64), MirroredArchive(3, 4, np.int64, capacity=2)
    for _ in range(4):
        host.add(rng.integers(0, 20, size=(30, 3)), rng.integers(0, 100, size=(30, 4)))
    host.visited[:] = rng.random(len(host)) < 0.5
    mirrored.hold(host.F, host.X, host.visited)
    assert len(host) > 2 and len(mirrored.device.buffer) >= len(host)
    for step in range(10):
        for part in ("F", "X", "visited"):
            np.testing.assert_array_equal(getattr(mirrored, part), getattr(host, part))
        np.testing.assert_array_equal(mirrored.device.F.get(), host.F)
        F, X = rng.integers(0, 20, size=(10, 3)), rng.integers(0, 100, size=(10, 4))
        np.testing.assert_array_equal(mirrored.add(F, X), host.add(F, X))


@pytest.mark.parametrize("dominating", [False, True])
def test_neighborhoods_filtered_in_one_graph_equal_the_host_archive(rng, dominating):
    """MirroredStart.filter_neighbors (evaluation, filter and update replayed as one CUDA graph) against
    the host path PLS takes; a capacity of 2 makes the device buffer grow, and the graph be captured
    again, many times."""
    from mols.algorithms.pls.local import MirroredStart

    problem = Flowshop(random_instance(rng, 30, 5))
    nbh = NEIGHBORHOODS["insertion"]
    gpu, cpu = prepare(problem, nbh, "gpu"), prepare(problem, nbh, "cpu")
    host = Archive(problem.n_obj, problem.n, problem.dtype)
    start = MirroredStart(gpu, nbh, problem, capacity=2)
    mirrored = start.archive
    for step in range(40):
        x = host.solution(int(rng.integers(len(host)))) if len(host) else problem.random_solution(rng)
        f = problem.evaluate_one(x)
        F = cpu.evaluate(x)
        ids = np.flatnonzero(dominates(F, f)) if dominating else np.arange(len(F))
        ids = ids[nondominated(F[ids])]
        accepted = host.add(F[ids], nbh.apply_many(x, ids))
        result = start.filter_neighbors(x, f if dominating else None)
        mirrored.commit(result, nbh.apply_many(x, result.ids))
        np.testing.assert_array_equal(result.ids, ids[accepted])
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(mirrored, part), getattr(host, part))
        np.testing.assert_array_equal(mirrored.device.F.get(), host.F)
        if step == 20:
            host.clear()
            mirrored.clear()
    assert len(mirrored.device.buffer) > 2
