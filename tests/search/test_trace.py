"""A run's trace (mols/search/trace.py): log-spaced rows, monotone where the run only improves, its last row the run's
end state; a reference point fixed for the instance; continued from a checkpoint; every kind of run has one."""

from __future__ import annotations

import math
import pickle

import moocore
import numpy as np
import pytest

from mols.algorithms.ils3opt.search import config_result
from mols.errors import MolsError
from mols.problems import load_problem
from mols.resume import checkpoints, read_checkpoint
from mols.runner import RunConfig, build_search
from mols.runner.batch import build_batch
from mols.search.loop import Runner
from mols.search.trace import Trace, reference_point

FLOWSHOP = {"instance": "020_05_01", "backend": "cpu", "seed": 3}
CONFIGS = [
    RunConfig(**FLOWSHOP, iterations=2000),  # PLS: the start's members count before they reach the run's archive
    RunConfig(**FLOWSHOP, algorithm="tabu", iterations=2000),  # 10 weight vectors: runs not merged yet count too
    RunConfig("nug12", problem="qap", algorithm="its", backend="cpu", iterations=2000, run_length=50),
]


def column(trace: Trace, name: str) -> np.ndarray:
    return np.array([row[trace.columns.index(name)] for row in trace.rows], dtype=np.float64)


def check_trace(result, problem) -> None:
    """Rows monotone (seconds, iterations, evaluations up; best values down, NaN while nothing is held; hypervolume
    up), and the last row the run's end state."""
    trace = result.trace
    assert trace.columns[:4] == ("seconds", "iterations", "evaluations", "archive")
    for name in ("seconds", "iterations", "evaluations"):
        assert (np.diff(column(trace, name)) >= 0).all(), name
    for name in problem.objectives:
        best = np.nan_to_num(column(trace, f"best_{name}"), nan=np.inf)
        assert (np.diff(best) <= 0).all(), name
    if problem.n_obj > 1:
        assert (np.diff(column(trace, "hypervolume")) >= -1e-9 * column(trace, "hypervolume")[-1]).all()
    last, F = trace.last(), result.archive.F
    assert last["seconds"] == result.wall_seconds
    assert (last["iterations"], last["evaluations"], last["archive"]) == (result.iterations,
                                                                         result.evaluated_neighbors, len(F))
    assert [last[f"best_{name}"] for name in problem.objectives] == F.min(axis=0).tolist()
    if problem.n_obj > 1:
        assert last["hypervolume"] == pytest.approx(moocore.hypervolume(F.astype(float), ref=trace.reference))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.problem}-{c.label}")
def test_a_run_has_a_monotone_log_spaced_trace_ending_at_its_end_state(config):
    search = build_search(config)
    result = search.run()
    assert result.trace is search.trace and result.trace.ended
    check_trace(result, search.problem)
    rows = len(result.trace.rows)
    assert 50 <= rows <= result.iterations / 10  # log-spaced: at least 50, and no row at most steps
    iterations = column(result.trace, "iterations")
    assert iterations[0] == 1  # the first step has its row


class After:
    """A stop (mols.signals.StopSignals' protocol) requested after `steps` steps."""

    name = "SIGTERM"

    def __init__(self, steps: int):
        self.steps, self.asked = steps, 0

    @property
    def requested(self) -> bool:
        self.asked += 1  # asked once as the run starts, then after each step
        return self.asked > self.steps


def test_an_interrupted_run_keeps_its_trace_to_its_end():
    search = build_search(RunConfig(**FLOWSHOP, iterations=10_000))
    result = Runner(search, stop=After(40)).run()
    assert result.status == "interrupted" and result.iterations == 40
    check_trace(result, search.problem)


def test_each_search_of_a_batch_has_its_own_trace():
    """The in-launch batch (no archive of its own, here on the CPU): every search's result carries its trace."""
    batch = build_batch(RunConfig(**FLOWSHOP, algorithm="tabu", iterations=300), 2)
    results = batch.run()
    assert results[0].trace is not results[1].trace
    for search, result in zip(batch.searches, results):
        assert result.trace is search.trace
        check_trace(result, search.problem)
    assert results[0].trace.reference.tolist() == results[1].trace.reference.tolist()


def test_ils3opt_traces_its_best_length():
    config = RunConfig("kroA100", problem="tsp", algorithm="ils", strategy="cpu", iterations=1024, backend="cpu")
    result, (problem, *_) = config_result(config)
    assert result.trace.columns == ("seconds", "iterations", "evaluations", "archive", "best_length")
    check_trace(result, problem)
    assert len(result.trace.rows) >= 3  # the first descents, chunks of iterations, the end


def test_the_reference_point_is_the_instances_whatever_the_run():
    problem = load_problem("flowshop", "020_05_01")
    point = reference_point(problem)
    runs = [build_search(RunConfig(**FLOWSHOP | {"seed": seed}, algorithm=algorithm, iterations=20)).run()
            for seed, algorithm in ((0, "pls"), (1, "tabu"))]
    assert [run.trace.reference.tolist() for run in runs] == [point.tolist()] * 2
    sample = problem.evaluate(np.stack([problem.random_solution(np.random.default_rng(0)) for _ in range(100)]))
    assert (point > sample.max(axis=0)).all()  # beyond every sampled solution
    assert reference_point(load_problem("qap", "nug12")) is None  # one objective: no hypervolume
    two = load_problem("flowshop", "020_05_01").with_objectives(["n_tardy", "makespan"])
    assert reference_point(two).tolist() == point[[2, 0]].tolist()  # objectives chosen: their columns


def test_a_run_resumed_from_its_checkpoint_continues_its_trace(tmp_path):
    """The checkpoint written where a signal stops the run holds its trace; the run resumed from it goes on with
    those rows, its seconds going on from the checkpoint's, and ends as the run left whole does."""
    config = RunConfig(**FLOWSHOP, iterations=600)
    first = build_search(config)
    stopped = Runner(first, monitors=[checkpoints(config, first, tmp_path, 3600.0)], stop=After(100)).run()
    assert stopped.status == "interrupted"
    _, state = read_checkpoint(tmp_path)
    saved = state["trace"]["rows"]
    assert saved == stopped.trace.rows[:-1]  # all but the row of the end, which came after the checkpoint
    later = build_search(config)
    result = later.run(resume=state)
    rows = result.trace.rows
    assert rows[:len(saved)] == saved and rows[len(saved)][0] >= saved[-1][0] and len(rows) > len(saved)
    check_trace(result, later.problem)
    assert result.trace.last()["iterations"] == build_search(config).run().iterations == 600
    qap = build_search(RunConfig("nug12", problem="qap", backend="cpu", iterations=5))
    with pytest.raises(MolsError, match="cannot continue"):
        Trace.from_state(state["trace"], qap)


def test_a_trace_that_ended_is_not_continued_by_another_run():
    search = build_search(RunConfig(**FLOWSHOP, iterations=20))
    first = search.run().trace
    assert Runner(search).trace is not first


def test_an_empty_archive_has_a_row_of_nothing():
    search = build_search(RunConfig(**FLOWSHOP, iterations=20))
    trace = Trace(search)
    trace.record(0.5)
    [row] = trace.rows
    assert row[:4] == [0.5, 0, 0, 0] and all(math.isnan(v) for v in row[4:7]) and row[7] == 0.0


def test_a_result_sent_back_by_a_worker_keeps_its_trace():
    """Pickled (a task's result), the trace leaves its run behind and keeps its rows."""
    result = build_search(RunConfig(**FLOWSHOP, iterations=20)).run()
    copy = pickle.loads(pickle.dumps(result))
    assert copy.trace.rows == result.trace.rows and copy.trace.run is None


def test_rows_read_while_the_run_goes_on_stay_its_first_rows(monkeypatch):
    """Rows are measured when read (a callback, a checkpoint) or once they hold PENDING values; either way they are
    the run's rows."""
    runner = Runner(build_search(RunConfig(**FLOWSHOP, iterations=400)))
    runner.start()
    for _ in range(200):
        runner.step()
    early = [list(row) for row in runner.trace.rows]
    while runner.step():
        pass
    result = runner.result
    assert result.trace.rows[:len(early)] == early and len(result.trace.rows) > len(early)
    monkeypatch.setattr("mols.search.trace.PENDING", 0)  # every row measured at once
    search = build_search(RunConfig(**FLOWSHOP, iterations=400))
    check_trace(search.run(), search.problem)
