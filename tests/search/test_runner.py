"""The runner (mols/search/loop.py): a search stepped by hand is the search run, budgets compose and say what ended
a run, monitors hear each step, archive change, new best and the end."""

from __future__ import annotations

import numpy as np
import pytest

from mols.runner import RunConfig, build_search
from mols.search.budget import Budget, Budgets, Evaluations, Iterations, Target, Time
from mols.search.loop import Runner
from mols.search.monitor import Monitor

FLOWSHOP = {"instance": "020_05_01", "backend": "cpu", "seed": 4}
CONFIGS = [
    RunConfig(**FLOWSHOP, iterations=40),
    RunConfig(**FLOWSHOP, iterations=60, restarts=0, variant="dominating"),
    RunConfig(**FLOWSHOP, algorithm="tabu", iterations=45),
    RunConfig(**FLOWSHOP, algorithm="its", iterations=90, run_length=30),
    RunConfig(**FLOWSHOP, algorithm="hc", iterations=50),
    RunConfig(**FLOWSHOP, algorithm="ils", iterations=50),
    RunConfig("nug12", problem="qap", algorithm="tabu", backend="cpu", iterations=50, target=600),
]


def stepped(search, **options):
    """The search run by hand: start, then step() until it says the run is over; (runner, steps that went on)."""
    runner = Runner(search, **options)
    runner.start()
    going = 0
    while runner.step():
        going += 1
    assert not runner.step()  # an ended run stays ended
    return runner, going


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.problem}-{c.label}")
def test_stepping_by_hand_gives_the_run(config):
    """On the CPU a step is one iteration: the run's last step ends it (a natural end is seen at the step after,
    which searches nothing)."""
    want = build_search(config).run()
    runner, going = stepped(build_search(config))
    got = runner.result
    np.testing.assert_array_equal(got.archive.F, want.archive.F)
    np.testing.assert_array_equal(got.archive.X, want.archive.X)
    assert (got.status, got.ended_by, got.iterations, got.starts) == (want.status, want.ended_by, want.iterations,
                                                                      want.starts)
    assert going == got.iterations - (got.ended_by != "natural end")


def test_a_budget_given_to_the_runner_ends_the_run_as_a_shorter_one():
    """PLS cut by an iteration budget of the runner gives the archive of a run of that many iterations."""
    short = build_search(RunConfig(**FLOWSHOP, iterations=17)).run()
    cut = build_search(RunConfig(**FLOWSHOP, iterations=500)).run(monitors=())
    runner, _ = stepped(build_search(RunConfig(**FLOWSHOP, iterations=500)), budgets=[Iterations(17)])
    assert cut.iterations == 500
    got = runner.result
    assert (got.status, got.ended_by, got.iterations) == ("completed", "iterations", 17)
    np.testing.assert_array_equal(got.archive.F, short.archive.F)
    np.testing.assert_array_equal(got.archive.X, short.archive.X)


class ArchiveOf(Budget):
    """Spent once the run's archive holds `size` solutions."""

    name = "archive size"

    def __init__(self, size: int):
        self.size = size

    def spent(self, search) -> bool:
        return len(search.archive) >= self.size


def test_a_budget_of_ones_own_ends_the_run_and_names_itself():
    search = build_search(RunConfig(**FLOWSHOP, algorithm="hc", iterations=10_000))
    result = Runner(search, budgets=[ArchiveOf(3)]).run()
    assert result.status == "completed" and result.ended_by == "archive size"
    assert len(result.archive) >= 3 and result.iterations < 10_000


def test_budgets_compose_the_first_spent_ends_the_run():
    """A target before a cap, a cap before the time; the caps give the iterations allowed."""
    budgets = Budgets.of(40, 361 * 30 + 7, 5.0, 1e9, 361)
    assert [type(b) for b in budgets] == [Target, Iterations, Evaluations, Time] and budgets.cap == 30
    assert Budgets.of(None, None, 2.0, None, 361).cap > 10**15
    search = build_search(RunConfig(**FLOWSHOP, algorithm="hc", iterations=1, target=(1e9, 1e9, 1e9)))
    result = search.run()
    assert result.ended_by == "target" and result.iterations == 1 == result.reached.iteration
    result = build_search(RunConfig(**FLOWSHOP, algorithm="hc", iterations=8, time=600.0)).run()
    assert result.ended_by == "iterations" and result.iterations == 8


class Recorder(Monitor):
    def __init__(self):
        self.steps, self.sizes, self.bests, self.ends = [], [], [], []

    def on_step(self, search):
        self.steps.append(search.iterations)

    def on_archive(self, search):
        self.sizes.append((search.iterations, len(search.archive)))

    def on_best(self, search):
        self.bests.append(search.archive.F.min(axis=0))

    def on_end(self, search, result):
        self.ends.append(result)


def test_monitors_hear_every_step_archive_change_new_best_and_the_end():
    """Hill climbing on one objective: every step that moves changes the archive (one member, the best so far)
    and is a new best; the end comes once, with the result."""
    search = build_search(RunConfig("nug12", problem="qap", algorithm="hc", backend="cpu", iterations=60, seed=2))
    recorder = Recorder()
    result = search.run(monitors=[recorder])
    assert recorder.steps == list(range(1, 61))
    assert recorder.ends == [result]
    bests = [int(b[0]) for b in recorder.bests]
    assert len(bests) > 2 and bests == sorted(set(bests), reverse=True)  # each a new best
    assert bests[-1] == result.archive.F.min()
    assert len(recorder.sizes) == len(bests)  # one objective: the archive changes only with a new best


def test_monitors_hear_of_the_archive_the_end_of_the_loop_fills():
    """Tabu search's weight vectors' runs keep archives of their own, merged into the run's when the walks end: the
    monitors hear of that archive at the end."""
    recorder = Recorder()
    result = build_search(RunConfig(**FLOWSHOP, algorithm="tabu", iterations=30)).run(monitors=[recorder])
    assert recorder.sizes[-1] == (30, len(result.archive)) and recorder.ends == [result]
    assert (recorder.bests[-1] == result.archive.F.min(axis=0)).all()


def test_on_iteration_is_a_monitor_before_the_runners():
    seen = []
    search = build_search(RunConfig(**FLOWSHOP, iterations=12), lambda done, size: seen.append(("it", done)))
    recorder = Recorder()
    search.run(monitors=[recorder])
    assert [done for tag, done in seen] == recorder.steps == list(range(1, 13))


def test_a_failing_monitor_fails_the_run_and_keeps_its_archive():
    class Failing(Monitor):
        def on_step(self, search):
            if search.iterations == 6:
                raise RuntimeError("display lost")

    recorder = Recorder()
    result = build_search(RunConfig(**FLOWSHOP, iterations=40)).run(monitors=[Failing(), recorder])
    assert result.status == "failed" and "RuntimeError: display lost" in result.error
    assert result.iterations == 6 and len(result.archive) > 0 and result.ended_by is None
    assert recorder.ends == [result]


def test_a_stop_before_the_first_step_searches_nothing():
    class Requested:
        requested, name = True, "SIGTERM"

    result = build_search(RunConfig(**FLOWSHOP, iterations=40)).run(Requested())
    assert (result.status, result.signal, result.iterations) == ("interrupted", "SIGTERM", 0)


def test_ils3opt_steps_by_chunks_through_the_runner():
    """ILS-3opt's steps: the first descents, then chunks of iterations (doubling while fast), up to the iterations of
    each solution; its result is run_ils3opt's."""
    from mols.algorithms.ils3opt.search import IlsRun, run_ils3opt
    from mols.problems.tsp import load_tsp
    from mols.problems.tsp.candidates import DEFAULT_K

    problem = load_tsp("kroA100")
    want = run_ils3opt(problem, "cpu", population=4, iterations=4 * 50, seed=1, threads=1)
    recorder = Recorder()
    got = Runner(IlsRun(problem, "cpu", 4, 50, None, None, 1, 1, DEFAULT_K, 0, 0), monitors=[recorder]).run()
    assert recorder.steps == [0, 1, 3, 7, 15, 31, 50] and recorder.ends == [got]
    assert (got.iterations, got.ended_by) == (want.iterations, "iterations")
    assert got.lengths.tolist() == want.lengths.tolist()
    np.testing.assert_array_equal(got.tour, want.tour)


def test_merged_rounds_step_by_the_round_once_a_round_is_slow(monkeypatch):
    """Merged rounds meet the host every round: their steps stop doubling at MERGED_SECONDS (here 0: at once), not at
    the launches' CHUNK_SECONDS (here so long that independent solutions' steps would always double), so the trace and
    the budgets are read every round."""
    from mols.algorithms.ils3opt import search
    from mols.algorithms.ils3opt.merge import ROUND
    from mols.problems.tsp import load_tsp
    from mols.problems.tsp.candidates import DEFAULT_K

    monkeypatch.setattr(search, "CHUNK_SECONDS", 1e9)
    monkeypatch.setattr(search, "MERGED_SECONDS", 0.0)
    recorder = Recorder()
    run = search.IlsRun(load_tsp("lin318"), "cpu", 4, 4 * ROUND, None, None, 1, 1, DEFAULT_K, 0, 2)
    Runner(run, monitors=[recorder]).run()
    assert recorder.steps == [0, ROUND, 2 * ROUND, 3 * ROUND, 4 * ROUND]
