"""Chunked evaluation equals the unchunked one: F, and the best admissible move with forbids and ties."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.select import best_pairs, best_pairs_parallel
from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec
from mols.backends.cpu import CpuEvaluator
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.tsp.instance import random_instance
from mols.problems.tsp.model import Tsp
from mols.runner import RunConfig, build_search


def selection_cases(rng, n_neighbors, n=20):
    """(step, threshold, forbidden_until) cases: none forbidden, most forbidden, all forbidden, aspiration."""
    for share, threshold in ((0.0, -np.inf), (0.8, -np.inf), (1.0, -np.inf), (0.9, np.inf)):
        forbidden = np.where(rng.random(n_neighbors) < share, 10, 0)
        yield 5, threshold, forbidden


@pytest.mark.parametrize("name", ["swap", "2opt", "3exchange"])  # 3-exchange steps through a chunk by next_move
@pytest.mark.parametrize("chunk", [1, 7, 64, 189])
def test_cpu_chunked_equals_unchunked(rng, name, chunk):
    problem, nbh = Tsp(random_instance(20, 1)), NEIGHBORHOODS[name]
    whole, chunked = CpuEvaluator(problem, nbh), CpuEvaluator(problem, nbh, BackendSpec("cpu", chunk_rows=chunk))
    assert chunked.chunk == min(chunk, whole.n_neighbors)
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(chunked.evaluate(x), whole.evaluate(x))
    c = np.array([1.0])
    for step, threshold, forbidden in selection_cases(rng, whole.n_neighbors):
        selection_for(whole).forbidden_until[:] = selection_for(chunked).forbidden_until[:] = forbidden
        a, b = selection_for(whole)(x, c, step, threshold), selection_for(chunked)(x, c, step, threshold)
        assert a[:2] == b[:2]
        np.testing.assert_array_equal(a[2], b[2])


def test_cpu_chunked_tabu_follows_the_same_path(rng):
    problem, nbh = Tsp(random_instance(25, 2)), NEIGHBORHOODS["2opt"]
    runs = [AggregatedTabu(problem, nbh, CpuEvaluator(problem, nbh, BackendSpec("cpu", chunk_rows=chunk)), 40,
                           np.random.default_rng(3)).run() for chunk in (None, 13)]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


def test_chunk_size_must_be_positive():
    with pytest.raises(MolsError, match="chunk size"):
        CpuEvaluator(Tsp(random_instance(10, 0)), NEIGHBORHOODS["swap"], BackendSpec("cpu", chunk_rows=0))


def test_tabu_on_one_objective_never_asks_for_the_whole_f():
    problem, nbh = Tsp(random_instance(30, 4)), NEIGHBORHOODS["swap"]
    evaluator = CpuEvaluator(problem, nbh, BackendSpec("cpu", chunk_rows=50))  # selected by chunks: no whole F
    search = AggregatedTabu(problem, nbh, evaluator, 20, np.random.default_rng(0))
    search.warm_up()
    evaluator.evaluate = None  # the search itself must select through the chunks alone
    for _ in search.steps():
        pass
    assert search.iterations == 20
    best = search.archive.F.min()
    assert best == problem.evaluate(search.archive.X).min()


def test_tabu_improves_a_random_tour():
    result = build_search(RunConfig(instance="kroA100", problem="tsp", algorithm="tabu", iterations=100,
                                    backend="cpu")).run()
    assert result.status == "completed" and result.iterations == 100
    problem = load_problem("tsp", "kroA100")
    random_length = problem.evaluate(problem.random_solution(np.random.default_rng(0)))[0]  # about 170,000
    assert result.archive.F.min() < 0.5 * random_length


@pytest.mark.parametrize("rows", [1, 2, 5, 1000])
def test_parallel_selection_equals_the_serial_one(rng, rows):
    F = rng.integers(0, 4, size=(rows, 2)).astype(np.int32)  # many ties
    c = np.array([1.0, 0.5])
    for share in (0.0, 0.7, 1.0):
        forbidden = np.where(rng.random(rows) < share, 10, 0)
        for threshold in (-np.inf, 2.0):
            expected = best_pairs(F, c, forbidden, 5, threshold)
            for threads in range(1, numba.config.NUMBA_NUM_THREADS + 1):
                try:
                    numba.set_num_threads(threads)
                    assert best_pairs_parallel(F, c, forbidden, 5, threshold) == expected
                finally:
                    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
