"""A problem mols does not know, brought by a user through the public extension points only: the
bi-objective max-cut on a seeded random graph (two weight sets), binary vectors, with Hamming-1 and
Hamming-2 neighborhoods, a Numba kernel and a CUDA kernel. Its CPU fronts are checked against brute
force; its GPU fronts equal the CPU ones exactly (integer objectives)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from numba import njit, prange

import mols
from mols.archive import nondominated
from mols.encodings import BinaryVector
from mols.neighborhoods import NEIGHBORHOODS
from mols.neighborhoods.hamming import decode2 as pair_decode

# The neighborhoods: mols's Hamming 1 and 2 (flip one bit, or two: ids in colex order, moves i < j).
HAMMING_1, HAMMING_2 = NEIGHBORHOODS["hamming1"], NEIGHBORHOODS["hamming2"]

# ---------------------------------------------------------------- the problem


def make_kernel(pairs: bool):
    @njit(parallel=True)
    def cut_kernel(W, x, cut, gain, F):
        """F[t, o] = -(cut after move t): flipping i changes cut o by gain[o, i]; flipping i and j too,
        less twice the edge (i, j), which stays as it was."""
        n, k = x.shape[0], cut.shape[0]
        for t in prange(F.shape[0]):
            i, j = pair_decode(t, n) if pairs else (t, -1)
            for o in range(k):
                delta = gain[o, i]
                if pairs:
                    delta += gain[o, j] - 2 * W[o, i, j] * (1 if x[i] == x[j] else -1)
                F[t, o] = -(cut[o] + delta)

    return cut_kernel


KERNELS = {False: make_kernel(False), True: make_kernel(True)}


CUDA = """
// One thread per move: the CUDA twin of cut_kernel. PAIRS: the Hamming-2 neighborhood.
extern "C" __global__ void cut_neighborhood(const int* W, const signed char* x, const int* cut, const int* gain,
                                           int* F, long long n_moves) {
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    const Move mv = nbh_decode(t, N);
    const int i = nbh_index(mv, 0);
    for (int o = 0; o < K; ++o) {
        int delta = gain[o * N + i];
#if PAIRS
        const int j = nbh_index(mv, 1);
        const int same = x[i] == x[j] ? 1 : -1;
        delta += gain[o * N + j] - 2 * W[(o * N + i) * N + j] * same;
#endif
        F[t * K + o] = -(cut[o] + delta);
    }
}
"""


class CutKernels(mols.KernelSet):
    """What the backends need of a MaxCut: the weights, the state of a cut (x, each cut, each flip's gain),
    the Numba kernels and the CUDA source."""

    cuda_kernel = "cut_neighborhood"

    def data(self):
        return (self.problem.W,)

    def state_layout(self):
        n, dtype = self.problem.n, self.problem.dtype
        return [((n,), np.dtype(np.int8)), ((2,), dtype), ((2, n), dtype)]

    def fill_state(self, x, state):
        x_s, cut, gain = state
        x_s[:] = x
        cut[:] = -self.problem.evaluate(x)
        same = np.where(x[:, None] == x[None, :], 1, -1)
        gain[:] = (self.problem.W * same).sum(axis=2)

    def cpu_kernel(self, nbh, incremental=True):
        return KERNELS[nbh.arity == 2]

    def cuda_source(self, nbh):
        return f"#define PAIRS {int(nbh.arity == 2)}\n" + CUDA

    def cuda_defines(self):
        return {"N": self.problem.n, "K": 2}


class MaxCut(mols.Problem):
    """Split n vertices in two; each objective is minus the weight of the edges cut, under its weights."""

    name = "maxcut"
    objectives = ("minus_cut_1", "minus_cut_2")
    dtype = np.dtype(np.int32)
    kernel_set = CutKernels

    def __init__(self, n: int, seed: int):
        rng = np.random.default_rng(seed)
        W = rng.integers(0, 10, size=(2, n, n)) * (rng.random((2, n, n)) < 0.6)
        self.W = np.ascontiguousarray(np.triu(W, 1) + np.triu(W, 1).transpose(0, 2, 1), dtype=np.int32)
        self.n, self.encoding, self.instance = n, BinaryVector(n), SimpleNamespace(name=f"graph{n}s{seed}")

    def _evaluate(self, X):
        across = X[:, :, None] != X[:, None, :]  # (B, n, n)
        return -np.einsum("kuv,buv->bk", self.W, across) // 2


def brute_force_front(problem):
    X = np.array(list(itertools.product((0, 1), repeat=problem.n)), dtype=np.int8)
    F = problem.evaluate(X)
    return {tuple(f) for f in F[nondominated(F)]}


def check(problem, archive):
    """Members are bit vectors whose vectors are the reference evaluation's, mutually non-dominated."""
    assert len(archive) > 0
    np.testing.assert_array_equal(archive.F, problem.evaluate(archive.X))
    assert nondominated(archive.F).all() and set(np.unique(archive.X)) <= {0, 1}


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("nbh", [HAMMING_1, HAMMING_2], ids=lambda nbh: nbh.name)
def test_the_kernel_equals_the_reference_evaluation(nbh):
    problem = MaxCut(12, 3)
    x = problem.random_solution(np.random.default_rng(0))
    F = mols.prepare(problem, nbh, "cpu").evaluate(x)
    np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


@pytest.mark.parametrize("nbh", [HAMMING_1, HAMMING_2], ids=lambda nbh: nbh.name)
def test_pls_finds_the_brute_force_front(nbh):
    problem = MaxCut(12, 5)  # a front of 12 points among 4,096 solutions
    result = mols.solve(problem, neighborhood=nbh, algorithm="pls", iterations=400, seed=1, backend="cpu")
    assert result.status == "completed"
    check(problem, result.archive)
    assert {tuple(f) for f in result.archive.F} == brute_force_front(problem)


@pytest.mark.parametrize("nbh", [HAMMING_1, HAMMING_2], ids=lambda nbh: nbh.name)
def test_aggregated_tabu_finds_most_of_the_brute_force_front(nbh):
    """Ten weight vectors of 30 steps each find most of the true front."""
    problem = MaxCut(12, 5)
    result = mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=300, seed=2, backend="cpu")
    check(problem, result.archive)
    front, found = brute_force_front(problem), {tuple(f) for f in result.archive.F}
    assert len(found & front) >= len(front) // 2


@pytest.mark.gpu
@pytest.mark.parametrize("nbh", [HAMMING_1, HAMMING_2], ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("algorithm", ["tabu", "pls"])
def test_the_gpu_gives_the_cpu_fronts(nbh, algorithm):
    problem = MaxCut(40, 5)
    runs = [mols.solve(problem, neighborhood=nbh, algorithm=algorithm, iterations=60, seed=4, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
