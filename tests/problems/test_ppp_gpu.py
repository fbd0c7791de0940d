"""The PPP's CUDA kernel (ppp.cu, one warp per neighbor) against its Numba twin, exactly: Hamming 1, 2, 3,
m a multiple of 32 or not, n above 32, random and near-planted solutions, chunked launches, 64-bit costs;
and tabu runs identical on both backends."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.backends import BackendSpec, prepare
from mols.neighborhoods import get_neighborhood
from mols.problems.ppp import Ppp, PppInstance, generate, load_ppp

pytestmark = pytest.mark.gpu
HAMMING = [get_neighborhood(f"hamming{k}") for k in (1, 2, 3)]


def solutions(problem: Ppp, rng: np.random.Generator) -> list[np.ndarray]:
    """Two random solutions, the planted one and two near it (the window is narrowest there)."""
    planted = ((problem.instance.v + 1) // 2).astype(np.int8)
    near = [planted.copy() for _ in range(2)]
    for flips, x in zip((1, 3), near):
        x[rng.choice(problem.n, flips, replace=False)] ^= 1
    return [problem.random_solution(rng), problem.random_solution(rng), planted, *near]


def gpu_equals_cpu(problem: Ppp, nbh, rng, gpu_spec="gpu") -> None:
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, gpu_spec)
    for x in solutions(problem, rng):
        np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
        got, want = gpu.best_weighted(x, np.ones(1), 0, np.inf), cpu.best_weighted(x, np.ones(1), 0, np.inf)
        assert got[:2] == want[:2]


@pytest.mark.parametrize("nbh", HAMMING, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("name", ["15-17", "32-33", "73-73", "101-117"])
def test_gpu_equals_cpu(rng, nbh, name):
    gpu_equals_cpu(load_ppp(name), nbh, rng)


@pytest.mark.parametrize("nbh", HAMMING[1:], ids=lambda nbh: nbh.name)
def test_gpu_equals_cpu_by_chunks(rng, nbh):
    """Launches of 1,000 moves (a last warp and a last block past the end of each)."""
    gpu_equals_cpu(load_ppp("45-47"), nbh, rng, BackendSpec("gpu", chunk_rows=1000))


def test_gpu_equals_cpu_on_a_large_instance(rng):
    gpu_equals_cpu(load_ppp("1301-1317"), HAMMING[0], rng)


def test_gpu_equals_cpu_with_64_bit_costs(rng):
    """Costs up to 2 G1 m n + 2 m exceed int32 here, so VAL is long long; every row flips the same way."""
    m, n = 15_000, 2_401
    problem = Ppp(PppInstance("wide", np.ones((m, n), dtype=np.int8), np.full(m, n), np.ones(n)))
    assert problem.dtype == np.int64
    cpu, gpu = prepare(problem, HAMMING[0], "cpu"), prepare(problem, HAMMING[0], "gpu")
    x = np.zeros(n, dtype=np.int8)  # V = -1: A V = -n everywhere, the largest cost
    np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
    assert cpu.evaluate(x).max() > np.iinfo(np.int32).max


@pytest.mark.parametrize("nbh", HAMMING, ids=lambda nbh: nbh.name)
def test_tabu_runs_are_identical_on_both_backends(nbh):
    problem = Ppp(generate(61, 61, 2))
    runs = [mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=40, seed=1, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    assert runs[0].iterations == runs[1].iterations
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
