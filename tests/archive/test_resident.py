"""ResidentArchive (a start's whole archive on the device) against the host Archive, step by step."""

from __future__ import annotations

import numpy as np
import pytest

from mols.archive import Archive, dominates, nondominated
from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.model import Flowshop
from mols.search.profiler import Profiler
from tests.conftest import random_instance

pytestmark = pytest.mark.gpu


def host_offer(archive: Archive, cpu, nbh, x, f, dominating: bool) -> np.ndarray:
    """What PLS does on the host: the accepted neighbor ids."""
    F = cpu.evaluate(x)
    ids = np.flatnonzero(dominates(F, f)) if dominating else np.arange(len(F))
    ids = ids[nondominated(F[ids])]
    return ids[archive.add(F[ids], nbh.apply_many(x, ids))]


def new_start(problem, resident, rng, size: int = 1) -> Archive:
    """The front of `size` random solutions as the resident archive's start, and a host Archive holding it."""
    X = np.stack([problem.random_solution(rng) for _ in range(size)])
    host = Archive(problem.n_obj, problem.n, problem.dtype)
    host.add(problem.evaluate(X), X)
    resident.clear()
    F, X = host.members()
    resident.start(X, F)
    return host


@pytest.mark.parametrize("name", ["insertion", "swap"])
@pytest.mark.parametrize("dominating", [False, True])
@pytest.mark.parametrize("scan", [1024, 32])  # 32 threads: archives span several tiles
@pytest.mark.parametrize("start_size", [1, 12])  # a random solution, or the front of 12 (PLS's initial=)
def test_resident_archive_equals_the_host_archive(rng, name, dominating, scan, start_size):
    """Same picks, same accepted neighbors, same members in the same order, through three starts; a
    capacity of 2 makes the buffers grow, and the graphs be captured again, many times (and a start of
    several members grow them at once)."""
    from mols.archive.resident import ResidentArchive

    problem = Flowshop(random_instance(rng, 25, 4))
    nbh = NEIGHBORHOODS[name]
    gpu, cpu = prepare(problem, nbh, "gpu"), prepare(problem, nbh, "cpu")
    resident = ResidentArchive(gpu, nbh, capacity=2, scan=scan)
    max_size = 0
    for start in range(3):
        host = new_start(problem, resident, rng, start_size)
        for step in range(60):  # enough for PLS-≠'s archives to pass 32 members (several tiles of the scan)
            if not same_iteration(resident, host, cpu, nbh, rng, dominating):
                break
            max_size = max(max_size, len(host))
    assert len(resident.slot) > 2
    assert scan == 1024 or dominating or max_size > scan


def same_iteration(resident, host: Archive, cpu, nbh, rng, dominating: bool) -> bool:
    """An iteration of both archives, a random unvisited member explored: the same member, accepted neighbors and
    members after it. False where no member is unvisited."""
    unvisited = host.unvisited_ids()
    assert resident.unvisited == unvisited.size
    if not unvisited.size:
        return False
    r = int(rng.integers(unvisited.size))
    member = int(unvisited[r])
    host.visited[member] = True
    x, f = resident.pick(r)
    np.testing.assert_array_equal(x, host.solution(member))
    np.testing.assert_array_equal(f, host.F[member])
    result = resident.explore(x, f if dominating else None, None, Profiler())
    np.testing.assert_array_equal(result.ids, host_offer(host, cpu, nbh, x, f, dominating))
    F, X = resident.members()
    np.testing.assert_array_equal(F, host.F)
    np.testing.assert_array_equal(X, host.X)
    return True


@pytest.mark.parametrize("dominating", [False, True])
def test_members_held_and_held_again_go_on_as_the_host_archive(rng, dominating):
    """held() gives the members with their visited flags, as the host Archive has them; hold() of those in another
    resident archive (a checkpoint's start restored; its buffers grow to take them) goes on as the host archive."""
    from mols.archive.resident import ResidentArchive

    problem = Flowshop(random_instance(rng, 25, 4))
    nbh = NEIGHBORHOODS["insertion"]
    gpu, cpu = prepare(problem, nbh, "gpu"), prepare(problem, nbh, "cpu")
    resident = ResidentArchive(gpu, nbh, capacity=2, scan=32)
    host = new_start(problem, resident, rng)
    for _ in range(200):  # until some members are visited (a member explored may leave at once, beaten)
        if not same_iteration(resident, host, cpu, nbh, rng, dominating) or (len(host) > 2 and host.visited.any()):
            break
    held = resident.held()
    for got, want in zip(held, (host.F, host.X, host.visited)):
        np.testing.assert_array_equal(got, want)
    assert held[2].dtype == bool and held[2].any()
    resident = ResidentArchive(gpu, nbh, capacity=2, scan=32)
    resident.hold(*held)
    assert len(resident) == len(host) and resident.unvisited == host.unvisited_ids().size
    for got, want in zip(resident.held(), held):
        np.testing.assert_array_equal(got, want)
    for _ in range(30):
        if not same_iteration(resident, host, cpu, nbh, rng, dominating):
            break


@pytest.mark.parametrize("dominating", [False, True])
@pytest.mark.parametrize("most", [64, 4])
def test_device_iterations_keep_the_members_of_the_host_loop(rng, dominating, most):
    """Batches of PLS iterations on the device (algorithms/pls/device.py) explore the members that pick_rank draws and
    keep the members of the host Archive driven one iteration at a time, batch by batch, through three
    starts; a capacity of 2 makes iterations overflow, be undone and run again in grown buffers."""
    from mols.algorithms.pls.device import DeviceIterations
    from mols.algorithms.pls.local import pick_rank
    from mols.archive.resident import ResidentArchive

    problem = Flowshop(random_instance(rng, 25, 4))
    nbh = NEIGHBORHOODS["insertion"]
    gpu, cpu = prepare(problem, nbh, "gpu"), prepare(problem, nbh, "cpu")
    resident = ResidentArchive(gpu, nbh, capacity=2, scan=32)
    device = resident.device_iterations = DeviceIterations(resident, most)
    seed, counter, batches = int(rng.integers(2**63)), 0, 0
    for start in range(3):
        host = new_start(problem, resident, rng)
        limit = 120 * (start + 1)
        while counter < limit and resident.unvisited:
            done = device.run(seed, counter, limit, dominating)
            for c in range(counter, done):
                unvisited = host.unvisited_ids()
                member = int(unvisited[pick_rank(seed, c, unvisited.size)])
                host.visited[member] = True
                host_offer(host, cpu, nbh, host.solution(member), host.F[member].copy(), dominating)
            counter, batches = done, batches + 1
            F, X = resident.members()
            np.testing.assert_array_equal(F, host.F)
            np.testing.assert_array_equal(X, host.X)
            assert resident.unvisited == host.unvisited_ids().size
    assert len(resident.slot) > 2
    assert counter > 3 * most or dominating  # batches of several iterations ran
