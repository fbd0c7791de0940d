"""The evolution strategy (-a es) on a one-objective sphere whose kernels step through the adaptive neighborhood's
public point functions (as any real-vector problem's would): it converges to 0, repeats for a seed, grows its radius
on success, shrinks it on failure, restarts when it collapses, and checks its options; on the GPU it makes the CPU's
run (the sphere's kernels round as the host does: relative tolerance 1e-12, never needed in practice) and the
Weierstrass function's (float64: the values agree to 1e-15, so both take the same steps)."""

from __future__ import annotations

import copy
import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from numba import njit, prange

import mols
from mols.encodings import RealVector
from mols.errors import OptionError
from mols.neighborhoods.adaptive import adaptive, coordinate
from mols.problems.weierstrass import load_weierstrass
from mols.runner import Monitor, build_search
from mols.search.base import Search

LOW, HIGH, TOLERANCE = -4.0, 4.0, 1e-12
NBH = adaptive(256, LOW, HIGH)


@njit(parallel=True)
def sphere_kernel(x, key, F):
    n = x.shape[0]
    for t in prange(F.shape[0]):
        total = 0.0
        for q in range(n):
            y = coordinate(x, t, q, n, key, LOW, HIGH)
            total += y * y
        F[t, 0] = total


CUDA = """
extern "C" __global__ void sphere(const double* x, const unsigned long long* key, double* F, long long n_moves) {
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    double total = 0.0;
    for (int q = 0; q < D; ++q) {
        const double y = adaptive_coordinate(x, t, q, D, key);
        total = __dadd_rn(total, __dmul_rn(y, y));
    }
    F[t] = total;
}
"""


class SphereKernels(mols.KernelSet):
    cuda_kernel = "sphere"

    def data(self):
        return ()

    def state_layout(self):
        return [((self.problem.n,), self.problem.dtype)]

    def fill_state(self, x, state):
        state[0][:] = x

    def cpu_kernel(self, nbh, incremental=True):
        return sphere_kernel

    def cuda_source(self, nbh):
        return CUDA

    def cuda_defines(self):
        return {"D": self.problem.n}


class Sphere(mols.Problem):
    name = "sphere"
    objectives = ("f",)
    dtype = np.dtype(np.float64)
    kernel_set = SphereKernels

    def __init__(self, d: int):
        self.n, self.encoding, self.instance = d, RealVector(d, LOW, HIGH), SimpleNamespace(name=f"sphere{d}")

    def _evaluate(self, X):
        f = np.zeros(len(X))
        for q in range(X.shape[1]):  # coordinate by coordinate, as the kernels add them
            f += X[:, q] * X[:, q]
        return f[:, None]


class Levels(Monitor):
    """Each step's levels, the value of the point under way (None after a collapse) and starts."""

    def __init__(self):
        self.rows = []

    def on_step(self, search):
        value = None if search.point is None else float(search.point[1][0])
        self.rows.append((list(search.levels), value, search.starts, search.point is None))


def run(problem=None, monitor=None, backend="cpu", nbh=NBH, **options):
    search = build_search(problem or Sphere(5), neighborhood=nbh, algorithm="es", backend=backend,
                               **{"iterations": 150, "seed": 1, **options})
    return search.run(monitors=[monitor] if monitor else [])


def test_the_kernel_equals_the_reference_evaluation():
    from mols.neighborhoods.adaptive import scaled_key

    problem = Sphere(4)
    x, key = problem.random_solution(np.random.default_rng(0)), scaled_key(np.array([3, 9], dtype=np.uint64), 5, 6)
    F = mols.prepare(problem, NBH, "cpu").evaluate(x, key)
    np.testing.assert_allclose(F, problem.evaluate(NBH.apply_many(x, np.arange(256), key)), rtol=TOLERANCE)


def test_on_the_sphere_it_converges_to_zero_and_repeats_for_a_seed():
    first, again, other = run(iterations=400), run(iterations=400), run(iterations=400, seed=2)
    assert first.archive.F.min() < 1e-20  # from a random point of [-4, 4]^5 (f about 27)
    np.testing.assert_array_equal(first.archive.X, again.archive.X)
    assert not np.array_equal(first.archive.X, other.archive.X)
    np.testing.assert_allclose(first.archive.F, Sphere(5).evaluate(first.archive.X), rtol=TOLERANCE)


def test_the_radius_grows_on_success_shrinks_on_failure_and_restarts_when_it_collapses():
    levels = Levels()
    result = run(monitor=levels, iterations=300, shrink=0.5, nbh=adaptive(2, LOW, HIGH), min_radius=1e-3, patience=3,
                 restart="point")
    rows, grew, shrank = levels.rows, 0, 0
    for (before, value_before, starts, _), (after, value, starts_after, ended) in itertools.pairwise(rows):
        if starts_after != starts or value_before is None:
            continue  # the step restarted: its levels are the first ones
        if not ended and value < value_before:
            grew += after[0] < before[0]  # the winner's step was near the radius: the radius grew
        elif not ended:
            assert after[0] == before[0] + 4  # a failure: 0.5 is 4 quarter octaves
            shrank += 1
    assert grew > 0 and shrank > 0
    restarts = [i for i, row in enumerate(rows) if row[3]]  # collapsed below 1e-3 of the box: the next step restarts
    assert restarts and result.starts == len(restarts) + (not rows[-1][3])
    assert all(rows[i + 1][2] == rows[i][2] + 1 for i in restarts if i + 1 < len(rows))
    floor = 40  # 1e-3 of the box: 2^(-40 / 4)
    for i in restarts:  # three failures in a row below it: the radius shrank twice there with the point unchanged
        assert all(row[2] == rows[i][2] and row[0][0] > floor for row in rows[i - 2:i + 1])
        assert rows[i - 1][0][0] == rows[i - 2][0][0] + 4 and rows[i - 1][1] == rows[i - 2][1]


def test_a_radius_restart_keeps_the_point_and_starts_again_at_the_first_radius():
    levels = Levels()
    result = run(monitor=levels, iterations=300, nbh=adaptive(2, LOW, HIGH), min_radius=1e-2, patience=1)
    rows = levels.rows
    first, floor = 4, 27  # the radius 0.5 and 1e-2 of the box: 2^(-level / 4); a failure adds 4 (shrink 0.5)
    resets = [i for i in range(1, len(rows)) if rows[i][0][0] == first and rows[i - 1][0][0] + 4 > floor]
    assert result.starts == 1 and resets  # one start; the radius fell below the floor and came back
    for i in resets:  # the point and its value go on: only the radius (and the subset chance) start again
        assert rows[i][1] == rows[i - 1][1]  # a failure: the point stays
    assert result.archive.F[0, 0] == min(row[1] for row in rows if row[1] is not None)


def test_one_success_sets_the_radius_from_the_winners_step():
    search = build_search(Sphere(5), neighborhood=NBH, algorithm="es", backend="cpu", iterations=10, seed=1)
    search.levels = [20, 12]
    search.adapt(0, 1)  # neighbor 0 stepped up to the radius itself: twice it, 4 levels fewer
    assert search.levels[0] == 16 and search.levels[1] == 14  # one coordinate moved, fewer than expected: less
    search.adapt(3, 5)  # neighbor 3 stepped up to the radius / 8: the radius / 4, 8 levels more
    assert search.levels == [24, 12]  # all five moved, more than expected: more


def test_options_and_misuse_are_refused_naming_the_parameter():
    for name, value in (("radius", 0.0), ("radius", 2.0), ("shrink", 1.0), ("shrink", -0.5), ("min_radius", 0.75)):
        with pytest.raises(OptionError, match=rf"^{name} must be in \("):
            mols.RunConfig("10", problem="weierstrass", algorithm="es", **{name: value})
    for value in (0, 2.5, True):
        with pytest.raises(OptionError, match="^patience must be a whole number >= 1"):
            mols.RunConfig("10", problem="weierstrass", algorithm="es", patience=value)
    with pytest.raises(OptionError, match="^neighborhood: es needs the adaptive one .*, not crowns$"):
        build_search(load_weierstrass("3"), neighborhood="crowns", algorithm="es", backend="cpu")
    assert mols.RunConfig("10", problem="weierstrass", algorithm="es").neighborhood == "adaptive"
    assert mols.RunConfig("10", problem="weierstrass", algorithm="tabu").neighborhood == "crowns"


def test_it_runs_from_a_config_with_a_time_budget_and_traces():
    config = mols.RunConfig("3", problem="weierstrass", algorithm="es", time=0.5, seed=2, backend="cpu")
    result = mols.solve(config)
    assert result.ended_by == "time" and result.trace is not None and len(result.trace.rows) > 2
    assert isinstance(build_search(config), Search)


@pytest.mark.gpu
def test_the_gpu_makes_the_cpus_run_on_the_sphere():
    runs = [run(Sphere(6), backend=backend, iterations=120, radius=0.25, min_radius=1e-6, patience=1,
                seed=3, restart="point")
            for backend in ("cpu", "gpu")]
    assert [r.status for r in runs] == ["completed", "completed"] and runs[0].starts > 1
    np.testing.assert_allclose(runs[1].archive.F, runs[0].archive.F, rtol=TOLERANCE)
    np.testing.assert_array_equal(runs[1].archive.X, runs[0].archive.X)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [3, 10, 40])
def test_the_gpu_makes_the_cpus_run_on_weierstrass(n):
    """The radius kept above 1e-6 of the box: far below it the neighbors' values differ by less than the backends'
    rounding (CUDA's sin is not libm's, and the GPU adds a coordinate's terms in another order), so a near tie may
    part the two runs there, as it would two compilers'."""
    problem = load_weierstrass(str(n))
    runs = [run(problem, nbh=adaptive(512), backend=backend, iterations=80, seed=4, min_radius=1e-6)
            for backend in ("cpu", "gpu")]
    np.testing.assert_allclose(runs[1].archive.F, runs[0].archive.F, rtol=0, atol=1e-9 * n)
    np.testing.assert_array_equal(runs[1].archive.X, runs[0].archive.X)


@pytest.mark.gpu
@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n", [1, 3, 10, 40])
def test_the_weierstrass_kernel_on_the_gpu_equals_the_cpus_at_every_level(precision, n):
    """Tolerances of tests/problems/test_weierstrass_gpu.py (the points are the same doubles); the GPU's incremental
    kernel (with its prepare kernel's values of x) against the CPU's incremental and full kernels, at two points in
    turn (the second upload's values replace the first's)."""
    from mols.neighborhoods.adaptive import scaled_key

    problem, nbh = load_weierstrass(f"{n}:{precision}"), adaptive(1001)
    cpu, gpu = mols.prepare(problem, nbh, "cpu"), mols.prepare(problem, nbh, "gpu")
    full = mols.prepare(problem, nbh, mols.BackendSpec("cpu", incremental=False))
    rng = np.random.default_rng(n)
    for x in (problem.random_solution(rng), problem.random_solution(rng)):
        for radius, subset in ((0, 4), (13, 255), (120, 9), (0, 0)):
            key = scaled_key(np.array([n, 3], dtype=np.uint64), radius, subset)
            atol = {"float64": 1e-9, "float32": 5e-5}[precision] * n
            F = gpu.evaluate(x, key).copy()
            np.testing.assert_allclose(F, cpu.evaluate(x, key), rtol=0, atol=atol)
            np.testing.assert_allclose(F, full.evaluate(x, key), rtol=0, atol=atol)


class SnapshotAt(Monitor):
    """The search's snapshot after step `step`."""

    def __init__(self, step: int):
        self.step, self.state = step, None

    def on_step(self, search):
        if search.iterations == self.step:
            self.state = copy.deepcopy(search.snapshot())


@pytest.mark.parametrize("step", [37, 90])
def test_a_run_resumed_from_its_snapshot_ends_as_the_whole_run(step):
    options = {"iterations": 200, "min_radius": 1e-4, "patience": 2, "restart": "point"}  # restarts within the run
    snapshot = SnapshotAt(step)
    whole = run(monitor=snapshot, **options)
    resumed = build_search(Sphere(5), neighborhood=NBH, algorithm="es", backend="cpu", seed=1,
                           **options).run(resume=snapshot.state)
    assert whole.starts > 1 and (resumed.starts, resumed.iterations) == (whole.starts, whole.iterations)
    np.testing.assert_array_equal(resumed.archive.X, whole.archive.X)
    np.testing.assert_array_equal(resumed.archive.F, whole.archive.F)
