"""A neighborhood split over two GPUs or more gives one GPU's results: F, each selection, tabu search and hill
climbing on the TSP (2-opt) and the PPP (Hamming 2 and 3), on the device only (skipped with fewer than two)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.descent.climb import HillClimbing
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, prepare
from mols.backends.gpu import GpuEvaluator
from mols.backends.split import visible_gpus
from mols.errors import OptionError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.tsp.instance import random_instance
from mols.problems.tsp.model import Tsp
from tests.backends.test_chunked import selection_cases

pytestmark = pytest.mark.gpu
CASES = [("tsp", "random:60:5", "2opt"), ("ppp", "73-73", "hamming2"), ("ppp", "31-31", "hamming3")]


@pytest.fixture
def gpus():
    """Every GPU of the machine (at least two)."""
    count = visible_gpus()
    if count < 2:
        pytest.skip(f"splitting a neighborhood needs two GPUs; CUDA sees {count}")
    return count


def evaluators(problem, nbh, gpus: int, chunk: int | None = None):
    """One GPU's evaluator and the split over `gpus` devices, both chunk by chunk where `chunk` is given."""
    one = GpuEvaluator(problem, nbh, BackendSpec("gpu", chunk_rows=chunk))
    return one, prepare(problem, nbh, BackendSpec("gpu", chunk_rows=chunk, gpus=gpus))


@pytest.mark.parametrize("problem_name, instance, nbh_name", CASES)
@pytest.mark.parametrize("chunk", [None, 97])
@pytest.mark.parametrize("two", [True, False])
def test_split_selection_equals_one_gpu(rng, gpus, problem_name, instance, nbh_name, chunk, two):
    """F and the choice under tabu memories and thresholds (ties to the lowest id), shares across chunks."""
    problem, nbh = load_problem(problem_name, instance), NEIGHBORHOODS[nbh_name]
    one, split = evaluators(problem, nbh, 2 if two else gpus, chunk)
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(split.evaluate(x), one.evaluate(x))
    c = np.ones(problem.n_obj)
    for step, threshold, forbidden in selection_cases(rng, one.n_neighbors):
        for ev in (one, split):
            selection_for(ev).allow_all()
            for idx in np.flatnonzero(forbidden):
                selection_for(ev).forbid(int(idx), int(forbidden[idx]))
        a, b = selection_for(one)(x, c, step, threshold), selection_for(split)(x, c, step, threshold)
        assert a[:2] == b[:2]
        np.testing.assert_array_equal(a[2], b[2])
        np.testing.assert_array_equal(selection_for(split).tabu_after(step), selection_for(one).tabu_after(step))


@pytest.mark.parametrize("problem_name, instance, nbh_name", CASES)
def test_split_tabu_equals_one_gpu(gpus, problem_name, instance, nbh_name):
    """One GPU walks on the device (TSP) or from the host (PPP); the split walks from the host: the same run."""
    problem, nbh = load_problem(problem_name, instance), NEIGHBORHOODS[nbh_name]
    runs = [AggregatedTabu(problem, nbh, ev, 80, np.random.default_rng(3), tenure=7).run()
            for ev in evaluators(problem, nbh, gpus)]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


def test_split_tabu_two_objectives_and_climb_equal_one_gpu(gpus):
    """biTSP's normalised weight vectors (bounds from whole evaluations), and hill climbing's restarts."""
    problem, nbh = load_problem("bitsp", "kroAB100"), NEIGHBORHOODS["2opt"]
    runs = [AggregatedTabu(problem, nbh, ev, 60, np.random.default_rng(4), partitions=2).run()
            for ev in evaluators(problem, nbh, gpus)]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    problem = Tsp(random_instance(40, 2))
    runs = [HillClimbing(problem, NEIGHBORHOODS["2opt"], ev, 50, np.random.default_rng(5)).run()
            for ev in evaluators(problem, NEIGHBORHOODS["2opt"], gpus)]
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


def test_more_gpus_than_visible_are_refused(gpus):
    problem = Tsp(random_instance(20, 1))
    with pytest.raises(OptionError, match=f"gpus {gpus + 1} asks for more GPUs than the {gpus} that CUDA sees"):
        prepare(problem, NEIGHBORHOODS["2opt"], BackendSpec("gpu", gpus=gpus + 1))


def test_bench_multi_gpu_smoke(gpus, tmp_path):
    """Small instances: every count's solution is one GPU's, and the report is written."""
    from mols.bench import multi_gpu

    df = multi_gpu.run(["tsp", "ppp"], [2], repeats=1, iterations=4, small=True)
    assert list(df["gpus"]) == [1, 2, 1, 2] and df["same_solution"].all()
    md, csv = multi_gpu.write_report(df, tmp_path)
    assert "speed-up over 1 GPU" in md.read_text() and csv.exists()
