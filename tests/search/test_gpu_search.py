"""On the device only: the GPU's device-side selection equals the CPU's, and whole searches give
the same front on both backends for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import together
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.walks import lane_walker
from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.model import Flowshop
from mols.runner import RunConfig, solve
from tests.conftest import random_instance, with_moves

pytestmark = pytest.mark.gpu


def _coefficients(rng, k):
    """Random weights, some zero (many equal scores), some tiny (scores differ in the last bits)."""
    c = rng.random(k) * rng.choice([0.0, 1e-9, 1.0, 3.7], size=k)
    return c if c.any() else np.ones(k)


# 3-exchange's 2.6 million moves of 200 jobs left out: the CPU's 20 evaluations of them take minutes.
SELECTION_CASES = with_moves(sorted(Flowshop.neighborhoods), [(2, 1), (9, 3), (50, 10), (200, 20)], most=10**6)


@pytest.mark.parametrize("name, n, m", SELECTION_CASES)
def test_device_selection_equals_cpu(rng, name, n, m):
    problem = Flowshop(random_instance(rng, n, m))
    nbh = NEIGHBORHOODS[name]
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    for trial in range(20):
        x = problem.random_solution(rng)
        c = _coefficients(rng, problem.n_obj)
        step = int(rng.integers(0, 10))
        blocked = rng.choice(cpu.n_neighbors, size=min(cpu.n_neighbors, int(rng.integers(0, 50))), replace=False)
        until = rng.integers(0, 20, size=blocked.size)
        for ev in (cpu, gpu):
            selection_for(ev).allow_all()
            for idx, u in zip(blocked, until):
                selection_for(ev).forbid(int(idx), int(u))
        threshold = [-np.inf, np.inf, float(rng.random() * 1e4)][trial % 3]
        got_cpu = selection_for(cpu)(x, c, step, threshold)
        got_gpu = selection_for(gpu)(x, c, step, threshold)
        assert got_gpu[:2] == got_cpu[:2]  # same id and the same score, bit for bit
        np.testing.assert_array_equal(got_gpu[2], got_cpu[2])


def test_everything_blocked_falls_back_to_the_best_of_all(rng):
    problem = Flowshop(random_instance(rng, 12, 4))
    gpu = prepare(problem, NEIGHBORHOODS["insertion"], "gpu")
    cpu = prepare(problem, NEIGHBORHOODS["insertion"], "cpu")
    x = problem.random_solution(rng)
    for ev in (cpu, gpu):
        for idx in range(ev.n_neighbors):
            selection_for(ev).forbid(idx, 100)
    c = np.array([1.0, 0.5, 2.0])
    assert selection_for(gpu)(x, c, 0, -np.inf)[:2] == selection_for(cpu)(x, c, 0, -np.inf)[:2]


@pytest.mark.parametrize("algorithm, variant", [("pls", "nondominated"), ("pls", "dominating"), ("tabu", "")])
@pytest.mark.parametrize("instance", ["020_10_01", "050_20_01"])
def test_same_front_on_both_backends_and_archives(algorithm, variant, instance):
    """The CPU, the GPU with the host archive and the GPU with the device filter find one front."""
    where = [("cpu", None), ("gpu", None)] + ([("gpu", "cpu"), ("gpu", "gpu")] if algorithm == "pls" else [])
    runs = {}
    for backend, archive in where:
        config = RunConfig(instance, algorithm=algorithm, variant=variant or "nondominated", backend=backend,
                           iterations=300, seed=7, archive=archive)
        runs[backend, archive] = solve(config)
    for key, run in runs.items():
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(run.archive, part), getattr(runs["cpu", None].archive, part), key)
        assert run.status == "completed", run.error


@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
@pytest.mark.parametrize("instance", ["020_10_01", "100_20_01"])
def test_pls_iterations_on_the_device_give_the_host_driven_front(variant, instance):
    """PLS-1 with its iterations in batches on the device (algorithms/pls/device.py) gives the front of the host
    driving each iteration with the same resident archive, and of the CPU, with the same seed."""
    from mols.backends import BackendSpec
    from mols.problems import load_problem
    from mols.runner import make_search

    fronts = {}
    for name, spec in [("device", BackendSpec("gpu")), ("host", BackendSpec("gpu", device_walk=False)),
                       ("cpu", BackendSpec("cpu"))]:
        config = RunConfig(instance, algorithm="pls", variant=variant, backend=spec.device, iterations=500, seed=11)
        problem = load_problem(config.problem, config.instance)
        nbh = problem.neighborhood(config.neighborhood)
        search = make_search(config, problem, nbh, prepare(problem, nbh, spec.resolved()))
        assert (search.local.device_iterations is not None) == (name == "device")
        result = search.run()
        assert result.status == "completed", result.error
        assert result.iterations == 500
        assert result.walk == ("device" if name == "device" else "host")
        fronts[name] = result.archive
    for name, archive in fronts.items():
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(archive, part), getattr(fronts["cpu"], part), name)


@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
@pytest.mark.parametrize("chunk_rows", [1000, 333])
def test_pls_with_the_device_archive_takes_a_neighborhood_in_chunks(variant, chunk_rows):
    """biTSP's 2-opt neighborhood evaluated in chunks is filtered on the device chunk by chunk (the mirrored
    archive), with the CPU's front."""
    from mols.algorithms.pls.local import MirroredStart
    from mols.backends import BackendSpec
    from mols.problems import load_problem
    from mols.runner import make_search

    fronts = []
    for spec in (BackendSpec("gpu", chunk_rows=chunk_rows), BackendSpec("cpu")):
        config = RunConfig("kroAB100", problem="bitsp", variant=variant, backend=spec.device, iterations=120, seed=5)
        problem = load_problem(config.problem, config.instance)
        nbh = problem.neighborhood(config.neighborhood)
        search = make_search(config, problem, nbh, prepare(problem, nbh, spec.resolved()))
        if spec.device == "gpu":
            assert search.evaluator.chunk == chunk_rows < search.evaluator.n_neighbors
            assert isinstance(search.local, MirroredStart)
        result = search.run()
        assert result.status == "completed", result.error
        fronts.append(result.archive)
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(fronts[0], part), getattr(fronts[1], part))


@pytest.mark.parametrize("repeats", [1, 40])  # 40 overflows the queue of forbids written inside the graph
def test_later_forbid_of_the_same_id_wins(rng, repeats):
    problem = Flowshop(random_instance(rng, 10, 3))
    nbh = NEIGHBORHOODS["swap"]
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    x = problem.random_solution(rng)
    c = np.array([1.0, 0.0, 0.0])
    best = selection_for(cpu)(x, c, 0, -np.inf)[0]
    for ev in (cpu, gpu):
        for r in range(repeats):
            selection_for(ev).forbid(best, 100 + r)
        selection_for(ev).forbid(best, 0)  # the last word: admissible again
    assert selection_for(gpu)(x, c, 0, -np.inf)[0] == selection_for(cpu)(x, c, 0, -np.inf)[0] == best
    for ev in (cpu, gpu):
        selection_for(ev).forbid(best, 5)
    assert selection_for(gpu)(x, c, 0, -np.inf)[0] == selection_for(cpu)(x, c, 0, -np.inf)[0] != best


@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
@pytest.mark.parametrize("problem, instance", [("mqap", "KC10-2fl-1uni"), ("bitsp", "kroAB100")])
def test_pls_on_other_problems_same_front_with_the_device_archive(problem, instance, variant):
    """mQAP's swap moves are applied on the device (the resident archive); 2-opt's are not (the mirrored
    archive): both give the CPU's front."""
    runs = [solve(RunConfig(instance, problem=problem, variant=variant, backend=backend, iterations=150, seed=4))
            for backend in ("cpu", "gpu")]
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(runs[1].archive, part), getattr(runs[0].archive, part))


@pytest.mark.parametrize("problem, instance", [("flowshop", "020_10_01"), ("flowshop", "200_20_01"),
                                               ("mqap", "KC10-2fl-1uni"), ("qap", "tai25a"), ("bitsp", "kroAB100")])
def test_weight_vectors_side_by_side_give_the_runs_one_after_another(problem, instance):
    """Aggregated tabu search's weight vectors walked side by side in lanes (one launch per kernel for all)
    give the archive of the GPU walking them one after another, and of the CPU."""
    from mols.backends import BackendSpec
    from mols.runner import build_search

    archives = {}
    for backend, lanes in [("gpu", True), ("gpu", False), ("cpu", False)]:
        config = RunConfig(instance, problem=problem, algorithm="tabu", backend=backend, iterations=400, seed=3)
        search = build_search(config)
        if backend == "gpu":
            search.evaluator = prepare(search.problem, search.nbh, BackendSpec("gpu", lanes=lanes))
        walkers = []
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(together, "lane_walker", lambda ev, n, *rots, made=walkers: made.append(lane_walker(ev, n, *rots)) or made[-1])
            result = search.run()
        assert result.status == "completed", result.error
        if backend == "gpu":
            assert any(w is not None for w in walkers) == (lanes and problem != "qap")  # qap: one vector
        archives[backend, lanes] = result.archive
    for key, archive in archives.items():
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(archive, part), getattr(archives["cpu", False], part), key)


@pytest.mark.parametrize("archive", ["gpu", "cpu"])
@pytest.mark.parametrize("problem_name, instance, neighborhood", [("flowshop", "050_10_01", "insertion"),
                                                                   ("bitsp", "kroAB100", "2opt")])
def test_pls_from_an_initial_population_gives_the_cpu_front(archive, problem_name, instance, neighborhood):
    """PLS-1 started from a population's front (a start of many members: resident on the device for the flowshop,
    mirrored for 2-opt, or on the host) finds the CPU's front, with the same seed."""
    from mols.problems import load_problem

    problem = load_problem(problem_name, instance)
    X = np.stack([np.random.default_rng(s).permutation(problem.n) for s in range(64)])
    runs = [solve(problem, neighborhood=neighborhood, initial=X, iterations=150, seed=5, backend=backend,
                  archive=where) for backend, where in [("cpu", None), ("gpu", archive)]]
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(runs[1].archive, part), getattr(runs[0].archive, part))
    assert runs[1].status == "completed", runs[1].error
