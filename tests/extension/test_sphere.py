"""A continuous problem mols does not know, brought through the public extension points only: two
spheres (f1 = |x|^2, f2 = |x - 2|^2, Schaffer's problem in d dimensions) on real vectors in a box, with a
sampled neighborhood: neighbor t is x moved in every coordinate by up to a radius that grows with t
(concentric crowns), drawn from the evaluation's key (mols.neighborhoods.draws), with a Numba kernel and
a CUDA kernel. The GPU kernel uses round-to-nearest operations without fused multiply-adds, so both
backends compute the same bits: the stated tolerance (1e-12, relative) is never needed in practice."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from numba import njit, prange

import mols
from mols.archive import nondominated
from mols.encodings import RealVector
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.draws import DRAWS_CUH, uniform

COUNT, RADIUS, LOW, HIGH = 64, 1.0, -4.0, 4.0  # neighbors, the outer crown's radius, the box
TOLERANCE = 1e-12


@njit
def crowns_size(n):
    return COUNT


@njit
def crowns_decode(idx, n):
    return (idx,)


@njit
def same_crown(idx, n):
    return idx  # the tabu attribute: the crown just used


@njit
def coordinate(x, idx, q, key):
    """Coordinate q of neighbor idx: x[q] plus a step of up to the crown's radius, clipped to the box."""
    step = (2.0 * uniform(key, idx, q) - 1.0) * (RADIUS * (idx + 1) / COUNT)
    return min(max(x[q] + step, LOW), HIGH)


@njit
def crowns_apply(x, idx, n, key, out):
    for q in range(n):
        out[q] = coordinate(x, idx, q, key)


CROWNS_CUH = f"""
#define NBH_ARITY 1
#define COUNT {COUNT}
#define RADIUS {RADIUS!r}
struct Move {{ long long t; }};
__device__ __forceinline__ Move nbh_decode(long long idx, int n) {{ Move mv; mv.t = idx; return mv; }}
__device__ __forceinline__ int nbh_index(Move mv, int q) {{ return (int)mv.t; }}
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) {{ return idx; }}
""" + DRAWS_CUH.read_text() + """
__device__ __forceinline__ double coordinate(const double* x, long long idx, int q, const unsigned long long* key) {
    const double radius = __ddiv_rn(__dmul_rn(RADIUS, (double)(idx + 1)), (double)COUNT);
    const double step = __dmul_rn(__dsub_rn(__dmul_rn(2.0, draw_uniform(key, idx, q)), 1.0), radius);
    return fmin(fmax(__dadd_rn(x[q], step), LOW), HIGH);
}
"""
CROWNS = Neighborhood("crowns", "real", 1, crowns_size, crowns_decode, crowns_apply, same_crown, CROWNS_CUH,
                      sampled=True)


@njit(parallel=True)
def spheres_kernel(x, key, F):
    for t in prange(F.shape[0]):
        f1 = f2 = 0.0
        for q in range(x.shape[0]):
            y = coordinate(x, t, q, key)
            f1 += y * y
            f2 += (y - 2.0) * (y - 2.0)
        F[t, 0], F[t, 1] = f1, f2


CUDA = """
extern "C" __global__ void spheres(const double* x, const unsigned long long* key, double* F, long long n_moves) {
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    double f1 = 0.0, f2 = 0.0;
    for (int q = 0; q < D; ++q) {
        const double y = coordinate(x, t, q, key), z = __dsub_rn(y, 2.0);
        f1 = __dadd_rn(f1, __dmul_rn(y, y));
        f2 = __dadd_rn(f2, __dmul_rn(z, z));
    }
    F[2 * t] = f1;
    F[2 * t + 1] = f2;
}
"""


class SphereKernels(mols.KernelSet):
    """The state is the point itself; the kernels draw each neighbor from the evaluation's key."""

    cuda_kernel = "spheres"

    def data(self):
        return ()

    def state_layout(self):
        return [((self.problem.n,), self.problem.dtype)]

    def fill_state(self, x, state):
        state[0][:] = x

    def cpu_kernel(self, nbh, incremental=True):
        return spheres_kernel

    def cuda_source(self, nbh):
        return CUDA

    def cuda_defines(self):
        return {"D": self.problem.n, "LOW": repr(LOW), "HIGH": repr(HIGH)}


class Spheres(mols.Problem):
    name = "spheres"
    objectives = ("f1", "f2")
    dtype = np.dtype(np.float64)
    kernel_set = SphereKernels

    def __init__(self, d: int):
        self.n, self.encoding, self.instance = d, RealVector(d, LOW, HIGH), SimpleNamespace(name=f"spheres{d}")

    def _evaluate(self, X):
        f1 = np.zeros(len(X))
        f2 = np.zeros(len(X))
        for q in range(X.shape[1]):  # coordinate by coordinate, as the kernels add them
            f1 += X[:, q] * X[:, q]
            f2 += (X[:, q] - 2.0) * (X[:, q] - 2.0)
        return np.stack([f1, f2], axis=1)


def check(problem, archive):
    assert len(archive) > 0
    np.testing.assert_allclose(archive.F, problem.evaluate(archive.X), rtol=TOLERANCE)
    assert nondominated(archive.F).all() and (archive.X >= LOW).all() and (archive.X <= HIGH).all()


def test_the_draws_repeat_and_depend_on_every_input():
    x, key = np.zeros(4), np.array([7, 1], dtype=np.uint64)
    a, b = CROWNS.apply_many(x, np.arange(COUNT), key), CROWNS.apply_many(x, np.arange(COUNT), key)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, CROWNS.apply_many(x, np.arange(COUNT), np.array([7, 2], dtype=np.uint64)))
    radius = RADIUS * (np.arange(COUNT) + 1) / COUNT  # every neighbor stays in its crown's radius
    assert (np.abs(a).max(axis=1) <= radius).all() and len({row.tobytes() for row in a}) == COUNT


def test_the_kernel_equals_the_reference_evaluation():
    problem = Spheres(5)
    x, key = problem.random_solution(np.random.default_rng(0)), np.array([3, 9], dtype=np.uint64)
    F = mols.prepare(problem, CROWNS, "cpu").evaluate(x, key)
    np.testing.assert_allclose(F, problem.evaluate(CROWNS.apply_many(x, np.arange(COUNT), key)), rtol=TOLERANCE)


@pytest.mark.parametrize("algorithm", ["tabu", "pls"])
def test_the_searches_improve_on_their_start_and_repeat(algorithm):
    problem = Spheres(5)
    runs = [mols.solve(problem, neighborhood=CROWNS, algorithm=algorithm, iterations=80, seed=1, backend="cpu")
            for _ in range(2)]
    check(problem, runs[0].archive)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)  # same seed, same draws, same front
    # The Pareto set is the segment from 0 to (2, ..., 2); f1 + f2 is least, 2 d, at its middle (1, ..., 1).
    assert runs[0].archive.F.sum(axis=1).min() < 1.1 * 2 * problem.n


@pytest.mark.gpu
@pytest.mark.parametrize("algorithm", ["tabu", "pls"])
def test_the_gpu_gives_the_cpu_fronts(algorithm):
    problem = Spheres(6)
    runs = [mols.solve(problem, neighborhood=CROWNS, algorithm=algorithm, iterations=40, seed=3, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    np.testing.assert_allclose(runs[1].archive.F, runs[0].archive.F, rtol=TOLERANCE)
    np.testing.assert_allclose(runs[1].archive.X, runs[0].archive.X, rtol=TOLERANCE)
