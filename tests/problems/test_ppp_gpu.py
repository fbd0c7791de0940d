"""The PPP's CUDA kernels (ppp.cu: Hamming 1 and 3 one warp per neighbor, Hamming 2 one thread per neighbor
over the rows sorted by Y) against their Numba twin, exactly: m a multiple of 32 or not, n above 32, random
and near-planted solutions, chunked launches, 64-bit costs; and tabu runs identical on both backends."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.algorithms.tabu.selection import selection_for
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
        got, want = selection_for(gpu)(x, np.ones(1), 0, np.inf), selection_for(cpu)(x, np.ones(1), 0, np.inf)
        assert got[:2] == want[:2]


@pytest.mark.parametrize("nbh", HAMMING, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("name", ["15-17", "32-33", "73-73", "101-117"])
def test_gpu_equals_cpu(rng, nbh, name):
    gpu_equals_cpu(load_ppp(name), nbh, rng)


@pytest.mark.parametrize("nbh", HAMMING[1:], ids=lambda nbh: nbh.name)
def test_gpu_equals_cpu_by_chunks(rng, nbh):
    """Launches of 1,000 moves (a last warp and a last block past the end of each)."""
    gpu_equals_cpu(load_ppp("45-47"), nbh, rng, BackendSpec("gpu", chunk_rows=1000))


@pytest.mark.parametrize("nbh", HAMMING[:2], ids=lambda nbh: nbh.name)
def test_gpu_equals_cpu_on_a_large_instance(rng, nbh):
    gpu_equals_cpu(load_ppp("1301-1317"), nbh, rng)


@pytest.mark.parametrize("nbh, m, n", [(HAMMING[0], 15_000, 2_401), (HAMMING[1], 400_000, 100)],
                         ids=["hamming1", "hamming2"])
def test_gpu_equals_cpu_with_64_bit_costs(nbh, m, n):
    """Costs up to 2 G1 m n + 2 m exceed int32 here, so VAL is long long; every row flips the same way."""
    problem = Ppp(PppInstance("wide", np.ones((m, n), dtype=np.int8), np.full(m, n), np.ones(n)))
    assert problem.dtype == np.int64
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    x = np.zeros(n, dtype=np.int8)  # V = -1: A V = -n everywhere, the largest cost
    np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
    assert cpu.evaluate(x).max() > np.iinfo(np.int32).max


def test_a_walk_of_small_changes_evaluates_as_fresh_states(rng):
    """The state follows a walk by the changed columns (cpu.fill_state), and ppp_pack re-sorts the columns
    after each upload: a sequence of near solutions on one evaluator, each against a fresh CPU evaluator."""
    problem, nbh = load_ppp("101-117"), HAMMING[1]
    gpu, x = prepare(problem, nbh, "gpu"), problem.random_solution(rng)
    for flips in (1, 2, 0, 3, 40, 2):
        x = x.copy()
        x[rng.choice(problem.n, flips, replace=False)] ^= 1
        np.testing.assert_array_equal(gpu.evaluate(x), prepare(problem, nbh, "cpu").evaluate(x))


@pytest.mark.parametrize("nbh", HAMMING, ids=lambda nbh: nbh.name)
def test_tabu_runs_are_identical_on_both_backends(nbh):
    problem = Ppp(generate(61, 61, 2))
    runs = [mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=40, seed=1, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    assert runs[0].iterations == runs[1].iterations
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
