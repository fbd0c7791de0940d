"""A batch of tabu searches run together (algorithms/tabu/batch.py) gives each search exactly what it gives alone: on the
CPU (the runs walk one after another) and on the GPU (side by side in lanes, one launch per kernel for all)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import together
from mols.algorithms.tabu.batch import SearchBatch
from mols.backends import prepare
from mols.errors import MolsError
from mols.problems import load_problem
from mols.runner import RunConfig, make_search, solve
from mols.runner.batch import build_batch, seed_configs


def batch_equals_alone(config: RunConfig, size: int) -> list:
    """The searches of seeds config.seed .. + size - 1 run as one batch, each checked against its run alone."""
    batch = build_batch(config, size)
    results = batch.run()
    for one, got in zip(seed_configs(config, size), results):
        alone = solve(one)
        assert got.status == alone.status == "completed", got.error
        assert got.iterations == alone.iterations and got.starts == alone.starts
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(got.archive, part), getattr(alone.archive, part), one.seed)
    return batch.searches


@pytest.mark.parametrize("config", [
    RunConfig("020_05_01", algorithm="tabu", backend="cpu", iterations=300, seed=5),
    RunConfig("020_05_01", algorithm="its", backend="cpu", iterations=250, run_length=40, seed=1),
    RunConfig("tai12a", problem="qap", algorithm="its", backend="cpu", iterations=200, run_length=30),
    RunConfig("KC10-2fl-1uni", problem="mqap", algorithm="tabu", backend="cpu", iterations=120, partitions=4),
])
def test_cpu_batch_gives_each_search_its_run_alone(config):
    batch_equals_alone(config, 3)


def test_a_batch_runs_tabu_searches_without_a_target():
    problem = load_problem("qap", "tai12a")
    nbh = problem.neighborhood("swap")
    evaluator = prepare(problem, nbh, "cpu")
    pls = make_search(RunConfig("tai12a", problem="qap", algorithm="pls", backend="cpu"), problem, nbh, evaluator)
    with pytest.raises(MolsError, match="tabu"):
        SearchBatch([pls])
    targeted = make_search(RunConfig("tai12a", problem="qap", algorithm="tabu", backend="cpu", target=1e9), problem,
                           nbh, evaluator)
    with pytest.raises(MolsError, match="target"):
        SearchBatch([targeted])


@pytest.mark.gpu
@pytest.mark.parametrize("config", [
    RunConfig("020_10_01", algorithm="tabu", backend="gpu", iterations=600, seed=2),
    RunConfig("050_20_01", algorithm="its", backend="gpu", iterations=500, run_length=70, seed=4),
    RunConfig("tai25a", problem="qap", algorithm="its", backend="gpu", iterations=400, run_length=60),
    RunConfig("KC10-2fl-1uni", problem="mqap", algorithm="tabu", backend="gpu", iterations=300, partitions=4),
    RunConfig("kroA100", problem="tsp", algorithm="its", backend="gpu", iterations=300, run_length=50, seed=3),
    RunConfig("kroAB100", problem="bitsp", algorithm="tabu", backend="gpu", iterations=200, seed=1),
])
def test_gpu_batch_in_lanes_gives_each_search_its_run_alone(config, monkeypatch):
    walkers = []
    lane_walker = together.lane_walker
    monkeypatch.setattr(together, "lane_walker", lambda ev, lanes, *rots: walkers.append(lane_walker(ev, lanes, *rots)) or walkers[-1])
    batch_equals_alone(config, 5)
    assert any(walker is not None for walker in walkers)  # the runs walked side by side


@pytest.mark.parametrize("backend", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_a_stop_ends_every_search_of_a_batch_with_its_archive_so_far(backend):
    """A stop requested during the batch (Ctrl-C) ends every search at once, each interrupted, with the
    signal's name and the archive it had found: whole members (their vectors are their solutions'). On the
    CPU the runs walk one after another, on the GPU side by side."""
    from types import SimpleNamespace

    stop = SimpleNamespace(requested=False, name="SIGINT")

    def counters(b):
        def count(iterations, _size):
            stop.requested = stop.requested or iterations >= 60
        return count

    config = RunConfig("020_05_01", algorithm="tabu", backend=backend, iterations=3000, seed=2)
    batch = build_batch(config, 3, counters)
    results = batch.run(stop)
    assert [r.status for r in results] == ["interrupted"] * 3
    assert {r.signal for r in results} == {"SIGINT"}
    assert 60 <= sum(r.iterations for r in results) < 3 * 3000
    problem = batch.searches[0].problem
    assert len(results[0].archive) > 0
    for r in results:
        if len(r.archive):
            np.testing.assert_array_equal(r.archive.F, problem.evaluate(r.archive.X))
