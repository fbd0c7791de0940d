"""ILS-3opt on the GPU equals the Numba reference exactly: every strategy, for a fixed seed, gives the same tours
and lengths as its CPU twin (the first-improvement ones share one search order with `cpu`; rkbi's twin is
`cpu-rkbi`, the same samples and the same choice among them)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.ils3opt.gpu import BLOCK_THREADS, WIDE_THREADS
from mols.algorithms.ils3opt.population import max_segment, start_tours
from mols.algorithms.ils3opt.search import GPU_STRATEGIES, make_population, run_ils3opt
from mols.algorithms.ils3opt.strategies import cpu_twin, population_shape
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists
from mols.problems.tsp.model import tour_lengths

SAMPLES = 300  # rkbi's per step here: enough to descend, few enough for quick tests

pytestmark = pytest.mark.gpu


def populations(instance: str, strategy: str, seed: int, P: int, chunks: list[int], launch_for: int | None = None):
    problem = load_tsp(instance)
    xy, n, att = problem.xy[0], problem.n, problem.att
    cand = candidate_lists(xy)
    tours = np.empty((P, n), np.int32)
    start_tours(xy, cand, np.uint64(seed), tours)
    lengths = tour_lengths(xy, tours, att)
    cpu = make_population(cpu_twin(strategy), xy, cand, seed, tours.copy(), lengths.copy(), max_segment(n), att, SAMPLES)
    gpu = make_population(strategy, xy, cand, seed, tours.copy(), lengths.copy(), max_segment(n), att, SAMPLES,
                          launch_for)
    for a, b in itertools.pairwise(chunks):
        cpu.run(a, b)
        gpu.run(a, b)
    return problem, cpu, gpu


@pytest.mark.parametrize("strategy", GPU_STRATEGIES)
@pytest.mark.parametrize("instance, P", [("random:60:1", 5), ("kroA100", 8), ("att532", 3), ("random:700:2", 2)])
def test_gpu_equals_cpu(strategy, instance, P):
    problem, cpu, gpu = populations(instance, strategy, 3, P, [0, 1, 4, 30])
    np.testing.assert_array_equal(gpu.best_lengths(), cpu.best_lengths())
    np.testing.assert_array_equal(gpu.bests.get(), cpu.bests)
    np.testing.assert_array_equal(gpu.tours.get(), cpu.tours)
    assert (tour_lengths(problem.xy[0], gpu.bests.get(), problem.att) == gpu.best_lengths()).all()


@pytest.mark.parametrize("strategy", ["fi-block", "fi-block-shared"])
@pytest.mark.parametrize("instance, P", [("kroA100", 8), ("att532", 3)])
@pytest.mark.parametrize("launch_for, threads", [(1 << 20, BLOCK_THREADS), (600, WIDE_THREADS)])
def test_a_thread_per_candidate_equals_cpu(strategy, instance, P, launch_for, threads):
    """fi-block's other search (a thread per candidate t3: algorithms.ils3opt.gpu.PAIRS_PER_SM), that of large populations,
    by a warp (32 blocks a multiprocessor: registers capped at 64) and by two (5 blocks)."""
    _, cpu, gpu = populations(instance, strategy, 3, P, [0, 1, 4, 30], launch_for=launch_for)
    assert gpu.threads == threads
    np.testing.assert_array_equal(gpu.best_lengths(), cpu.best_lengths())
    np.testing.assert_array_equal(gpu.bests.get(), cpu.bests)


@pytest.mark.parametrize("strategy", ["fi-block", "fi-block-shared", "rkbi", "or3opt"])
def test_gpu_equals_cpu_on_pcb3038(strategy):
    _, cpu, gpu = populations("pcb3038", strategy, 0, 2, [0, 1, 6])
    np.testing.assert_array_equal(gpu.best_lengths(), cpu.best_lengths())
    np.testing.assert_array_equal(gpu.bests.get(), cpu.bests)


@pytest.mark.parametrize("strategy", GPU_STRATEGIES)
def test_run_on_gpu_equals_run_on_cpu(strategy):
    problem = load_tsp("kroA100")
    gpu = run_ils3opt(problem, strategy, 16, iterations=16 * 50, seed=4, samples=SAMPLES)
    cpu = run_ils3opt(problem, cpu_twin(strategy), 16, iterations=16 * 50, seed=4, samples=SAMPLES)
    np.testing.assert_array_equal(gpu.lengths, cpu.lengths)
    np.testing.assert_array_equal(gpu.tour, cpu.tour)


@pytest.mark.parametrize("strategy", ["fi-block", "fi-block-shared", "or3opt"])
def test_run_with_quadrant_lists_on_gpu_equals_run_on_cpu(strategy):
    problem = load_tsp("fl1577")
    gpu = run_ils3opt(problem, strategy, 8, iterations=8 * 100, seed=2, lists="quadrant")
    cpu = run_ils3opt(problem, cpu_twin(strategy), 8, iterations=8 * 100, seed=2, lists="quadrant")
    np.testing.assert_array_equal(gpu.lengths, cpu.lengths)
    np.testing.assert_array_equal(gpu.tour, cpu.tour)


@pytest.mark.parametrize("strategy", ["fi-thread", "fi-block", "fi-block-shared", "or3opt"])
@pytest.mark.parametrize("instance, P", [("att532", 24), ("pcb3038", 16), ("att532", 600)])
def test_merged_run_on_gpu_equals_run_on_cpu(strategy, instance, P):
    """Merged rounds (ils_merge), two islands: the device's rounds and merges give the CPU's incumbents (600
    solutions: fi-block's search by candidate; or3opt: fi-block-shared's kernel on att532, fi-block's on pcb3038,
    with Or-opt moves)."""
    problem = load_tsp(instance)
    gpu = run_ils3opt(problem, strategy, P, iterations=P * 96, seed=3, merge=P // 2)
    cpu = run_ils3opt(problem, cpu_twin(strategy), P, iterations=P * 96, seed=3, merge=P // 2)
    np.testing.assert_array_equal(gpu.lengths, cpu.lengths)
    np.testing.assert_array_equal(gpu.tour, cpu.tour)
    assert gpu.best == tour_lengths(problem.xy[0], gpu.tour[None], problem.att)[0]


def test_or3opt_is_the_default_on_the_gpu_and_runs_by_time():
    """-p tsp -a ils without a strategy on the GPU runs or3opt, merged in islands by the instance's size, with a time
    budget through mols.solve; its best tour equals cpu-or3opt's for the same seed and iterations."""
    from mols import solve
    from mols.runner.config import RunConfig

    config = RunConfig(instance="rat783", problem="tsp", algorithm="ils", time=1.0, seed=2)
    assert config.strategy == "or3opt" and config.backend == "gpu"
    result = solve(config)
    population, island = population_shape("or3opt", 783, None, None)
    assert result.details["merge_island"] == island and result.details["population"] == population
    gpu = run_ils3opt(load_tsp("rat783"), "or3opt", 256, iterations=256 * 65, seed=2)
    cpu = run_ils3opt(load_tsp("rat783"), "cpu-or3opt", 256, iterations=256 * 65, seed=2)
    np.testing.assert_array_equal(gpu.lengths, cpu.lengths)


def test_or3opt_from_the_greedy_start_tour_equals_its_twin():
    """--start-tours greedy: every solution starts from the greedy-edge tour on both backends; the same tours."""
    gpu = run_ils3opt(load_tsp("rat783"), "or3opt", 256, iterations=256 * 65, seed=2, start="greedy")
    cpu = run_ils3opt(load_tsp("rat783"), "cpu-or3opt", 256, iterations=256 * 65, seed=2, start="greedy")
    np.testing.assert_array_equal(gpu.lengths, cpu.lengths)
    np.testing.assert_array_equal(gpu.tour, cpu.tour)
