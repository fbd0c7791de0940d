"""The CUDA kernel (weierstrass.cu, several lanes per neighbor) against its Numba twin, in both arithmetics,
dimensions below and above a warp's 32 lanes and several lane counts; tabu walks on the device (the apply
kernel) against walks from the host; and a tabu run on both backends.

The neighbors' points are the same doubles on both (crowns.py says how), so F differs only by the sums'
order (lanes, then a shuffle tree, against coordinate by coordinate) and by sin's last bits. Tolerances,
absolute, per coordinate: float64, 1e-9 (the differences are near 1e-15); float32, 5e-5 (emulating the
GPU's order of the float32 sums on the CPU gave at most 2.2e-6 per coordinate, and CUDA's sinf is within
2 ulp). Either is far below what a wrong point or a wrong arithmetic would give: float32 and float64
differ by 1e-2 per coordinate on average, and a point one bit off moves f by up to 1e-3."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.walks import device_walk, host_walk
from mols.backends import BackendSpec
from mols.neighborhoods.crowns import PAPER_COUNT, crowns
from mols.problems.weierstrass import load_weierstrass
from tests.conftest import trail

pytestmark = pytest.mark.gpu
ATOL = {"float64": 1e-9, "float32": 5e-5}


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n, count", [(1, 2048), (3, 2048), (10, PAPER_COUNT), (40, 1000), (100, 300)])
def test_gpu_equals_cpu(precision, n, count):
    nbh = crowns(count)
    problem = load_weierstrass(f"{n}:{precision}")
    cpu, gpu = mols.prepare(problem, nbh, "cpu"), mols.prepare(problem, nbh, "gpu")
    rng = np.random.default_rng(n)
    for r, x in enumerate((problem.random_solution(rng), problem.random_solution(rng), np.ones(n))):
        key = np.array([r, 7 + n], dtype=np.uint64)
        np.testing.assert_allclose(gpu.evaluate(x, key), cpu.evaluate(x, key), rtol=0, atol=ATOL[precision] * n)


def test_tabu_ends_at_the_same_solution_on_both_backends():
    """float64: the values agree to 1e-15, so both backends take the same moves (in float32 two neighbors
    within the tolerance of each other could be taken in either order)."""
    problem, nbh = load_weierstrass("3"), crowns(512)
    runs = [mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=60, seed=5, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    np.testing.assert_allclose(runs[1].archive.F, runs[0].archive.F, rtol=0, atol=ATOL["float64"] * problem.n)
    np.testing.assert_array_equal(runs[1].archive.X, runs[0].archive.X)


@pytest.mark.parametrize("lanes", [None, 4, 32])
@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_lanes_per_neighbor_give_the_cpus_values_and_choice(lanes, precision):
    """Each lane count (None: 16 here), on a neighborhood that no warp's neighbors divide (a last warp past
    the end): F within the tolerance of the CPU's, and the device-side selection, with forbidden neighbors
    and aspiration, picks the neighbor that select.py picks from that F."""
    problem, nbh = load_weierstrass(f"10:{precision}"), crowns(1001)
    problem.kernels.tuned_move_threads = lanes
    cpu, gpu = mols.prepare(problem, nbh, "cpu"), mols.prepare(problem, nbh, "gpu")
    rng = np.random.default_rng(4)
    for trial in range(6):
        x, key = problem.random_solution(rng), np.array([trial, 3], dtype=np.uint64)
        F = gpu.evaluate(x, key).copy()
        np.testing.assert_allclose(F, cpu.evaluate(x, key), rtol=0, atol=ATOL[precision] * 10)
        blocked = rng.choice(1001, size=50 * trial, replace=False)
        selection_for(gpu).allow_all()
        for idx in blocked:
            selection_for(gpu).forbid(int(idx), 5)
        threshold = [np.inf, -np.inf][trial % 2]  # every neighbor admissible, or the ones not blocked
        admissible = np.where(np.isin(np.arange(1001), blocked) & (threshold < np.inf), np.inf, F[:, 0])
        idx, score, f = selection_for(gpu)(x, np.array([1.0]), 2, threshold, key)
        assert idx == int(np.argmin(admissible)) and score == F[idx, 0] and f[0] == F[idx, 0]


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_device_walk_takes_the_host_walks_steps(precision):
    """Two walks on the device (batches of 7 steps, the last one shorter), step t drawing with keys[t] (the
    apply kernel advances the key on the device): the solutions, scores and values of the host walk, bit for
    bit. After each, the state on the device is the last solution and the key after the last step's."""
    problem, nbh = load_weierstrass(f"5:{precision}"), crowns(2048)
    device = mols.prepare(problem, nbh, BackendSpec("gpu", walk_batch=7))
    host = mols.prepare(problem, nbh, BackendSpec("gpu", device_walk=False))
    rng = np.random.default_rng(6)
    for run in range(2):
        x, c = problem.random_solution(rng), np.array([1.0])
        keys = np.column_stack([np.full(30, 9 + run), np.arange(1, 31) + 100 * run]).astype(np.uint64)
        threshold = float(problem.evaluate_one(x)[0])
        got = trail(device_walk(device, x, c, threshold, 30, problem.n, keys))
        want = trail(host_walk(host, nbh, x, c, threshold, 30, problem.n, keys))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
        state = device.state.device  # x, its values and f(x) (the adaptive neighborhood's), the key
        on_device_x, on_device_key = state[0].get(), state[-1].get()
        np.testing.assert_array_equal(on_device_x, got[0][-1])
        np.testing.assert_array_equal(on_device_key, keys[-1] + np.array([0, 1], dtype=np.uint64))


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_tabu_on_the_device_finds_the_archive_of_the_host_walk(precision):
    """Whole tabu runs with one seed, the walk on the device in batches of 7 (a last one shorter) and from the
    host: the same archive, and the same draws counted by the search."""
    problem, nbh = load_weierstrass(f"10:{precision}"), crowns(PAPER_COUNT)
    runs = []
    for spec in (BackendSpec("gpu", walk_batch=7), BackendSpec("gpu", device_walk=False)):
        search = AggregatedTabu(problem, nbh, mols.prepare(problem, nbh, spec), 60, np.random.default_rng(8))
        runs.append((search.run(), search._draws))
        assert runs[-1][0].status == "completed", runs[-1][0].error
    (device, device_draws), (host, host_draws) = runs
    assert device_draws == host_draws == 62
    np.testing.assert_array_equal(device.archive.F, host.archive.F)
    np.testing.assert_array_equal(device.archive.X, host.archive.X)
