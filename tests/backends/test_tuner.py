"""Algorithm 3 without a device: the paper's grid (sizes, order, bounds), the tuner's rounds, its choice and its
fault tolerance, the cache it writes, and the tabu selection that runs it (fake evaluators and timers)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import tuned
from mols.backends.launch import DEFAULT_LAUNCH, Launch
from mols.backends.tuning import (
    PAPER_BLOCKS,
    LaunchTuner,
    TuningCache,
    grid_launch,
    nearest_power_of_two,
    paper_grid,
)


class FakeEvaluator:
    """What LaunchTuner and TuningSelection use of a GpuEvaluator: its launch, relaunch, stage, with_launch."""

    def __init__(self):
        self.launch, self.tuner, self.relaunched, self.staged = DEFAULT_LAUNCH, None, [], []

    def relaunch(self, launch: Launch) -> None:
        self.launch = launch
        self.relaunched.append(launch)

    def stage(self, x, key=None) -> None:
        self.staged.append(x)

    def with_launch(self, launch: Launch):
        variant = FakeEvaluator()
        variant.launch = launch
        return variant


@pytest.mark.parametrize("n, power", [(1, 1), (2, 2), (3, 4), (5, 4), (6, 8), (20, 16), (24, 32), (100, 128),
                                      (117, 128), (200, 256), (1291, 1024), (3038, 2048)])
def test_the_nearest_power_of_two(n, power):
    assert nearest_power_of_two(n) == power


def test_the_grid_is_the_papers_totals_times_blocks_in_its_order():
    assert PAPER_BLOCKS == tuple(range(32, 513, 32)) and len(PAPER_BLOCKS) == 16
    grid = paper_grid(100, 4950)  # QAP tai100a's swap: 128, ..., 4096 threads (8192 passes 4950 moves)
    assert grid == [(total, block) for total in (128, 256, 512, 1024, 2048, 4096) for block in PAPER_BLOCKS]
    assert paper_grid(100, 4096)[-1] == (4096, 512)  # the neighborhood's size itself is in
    assert paper_grid(100, 4095)[-1] == (2048, 512)


def test_a_neighborhood_smaller_than_the_first_total_has_that_total_alone():
    assert paper_grid(100, 50) == [(128, block) for block in PAPER_BLOCKS]


def test_a_grid_point_is_the_selections_blocks_times_its_block():
    assert grid_launch(128, 96) == Launch(96, 64, None, 2)  # the selection's block: a power of two, 64
    assert grid_launch(4096, 256) == Launch(256, 256, None, 16)
    assert grid_launch(128, 512) == Launch(512, 512, None, 1)  # one block at least
    for total, block in paper_grid(1291, 832_695):
        launch = grid_launch(total, block)
        assert launch.move_threads is None and launch.grid * launch.sel_block == max(total, launch.sel_block)


def tuner(tmp_path, launches, trials=3):
    ev = FakeEvaluator()
    ev.tuner = LaunchTuner(ev, launches, TuningCache(tmp_path / "tuning.json"), "key", trials)
    return ev, ev.tuner


def grid(count: int) -> list[Launch]:
    return [grid_launch(128, block) for block in PAPER_BLOCKS[:count]]


def test_the_tuner_times_each_launch_in_rounds_and_keeps_the_fastest(tmp_path):
    launches = grid(4)
    seconds = {launches[0]: [5, 5, 5], launches[1]: [9, 1, 9], launches[2]: [2, 2, 2], launches[3]: [4, 4, 1.5]}
    ev, t = tuner(tmp_path, launches)
    order = []
    while not t.done:
        assert t.left == 12 - len(order)
        order.append(t.current)
        t.record(seconds[t.current][sum(launch == t.current for launch in order) - 1])
    assert order == launches * 3 and t.iterations == 12 and t.left == 0
    assert t.best() == launches[1]  # each launch's lowest time: 5, 1, 2, 1.5
    assert ev.launch == launches[1] and ev.relaunched == [launches[1]] and ev.tuner is None
    assert TuningCache.load(tmp_path / "tuning.json").launches == {"key": launches[1]}


def test_of_equal_times_the_first_is_kept(tmp_path):
    ev, t = tuner(tmp_path, grid(3), trials=1)
    while not t.done:
        t.record(2.0)
    assert ev.launch == grid(3)[0]


def test_a_launch_that_fails_ends_the_grid_and_the_launches_before_it_finish_their_trials(tmp_path):
    launches = grid(5)
    ev, t = tuner(tmp_path, launches)
    t.record(3.0)
    t.record(2.0)
    assert t.current == launches[2]
    t.fail()
    assert t.failed == launches[2] and t.launches == launches[:2] and not t.done and t.left == 4
    order = []
    while not t.done:
        order.append(t.current)
        t.record(3.0 if t.current == launches[0] else 2.0)
    assert order == launches[:2] * 2 and ev.launch == launches[1]
    assert TuningCache.load(tmp_path / "tuning.json").launches == {"key": launches[1]}


def test_a_first_launch_that_fails_keeps_the_default(tmp_path):
    ev, t = tuner(tmp_path, grid(3))
    t.fail()
    assert t.done and t.best() == DEFAULT_LAUNCH and ev.relaunched == [] and ev.tuner is None
    assert TuningCache.load(tmp_path / "tuning.json").launches == {"key": DEFAULT_LAUNCH}


def test_a_failure_in_a_later_round_keeps_the_best_of_those_timed(tmp_path):
    launches = grid(3)
    ev, t = tuner(tmp_path, launches, trials=2)
    for seconds in (3.0, 1.0, 2.0, 3.0):  # round 0, then launch 0 of round 1
        t.record(seconds)
    t.fail()  # launch 1 in round 1: gone with launch 2, whose trial of round 1 never ran
    assert t.done and ev.launch == launches[0]


class FakeFailure(Exception):
    """A launch failure (launch_failures() asks CuPy, which a machine without a device may lack)."""


class FakeSelection:
    """DeviceSelection's calls: the choice is a function of x alone, whatever the launch; the variant of `failing`
    raises as it is made (its kernels fail to compile)."""

    def __init__(self, ev, failing: Launch | None, calls: list, forbids: list):
        self.ev, self.failing, self.calls, self.forbids = ev, failing, calls, forbids

    def variant(self, ev):
        if ev.launch == self.failing:
            raise FakeFailure("too many resources requested for launch")
        return FakeSelection(ev, self.failing, self.calls, self.forbids)

    def launch(self, c, threshold, step) -> None:
        self.calls.append(self.ev.launch)

    def collect(self):
        x = self.ev.staged[-1]
        return np.array([int(x.sum())]), np.array([float(x @ x)]), x[None, :2]

    def __call__(self, x, c, step, threshold, key=None):
        self.ev.stage(x)
        self.launch(c, threshold, step)
        out_id, out_score, out_f = self.collect()
        return int(out_id[0]), float(out_score[0]), out_f[0].copy()

    def forbid(self, idx, until) -> None:
        self.forbids.append((idx, until))


def test_the_tuning_selection_steps_as_any_launch_and_survives_a_failing_one(tmp_path, monkeypatch):
    monkeypatch.setattr(tuned, "launch_failures", lambda: (FakeFailure,))
    launches = grid(4)
    ev, t = tuner(tmp_path, launches, trials=2)
    t.time = lambda enqueue: (enqueue(), 0.5 if t.current == launches[1] else 1.0)[1]
    calls, forbids = [], []
    selection = tuned.TuningSelection(FakeSelection(ev, launches[2], calls, forbids), t)
    rng = np.random.default_rng(0)
    for step in range(9):
        x = rng.integers(0, 9, 6)
        idx, score, f = selection(x, np.ones(1), step, -np.inf)
        assert (idx, score) == (int(x.sum()), float(x @ x))
        np.testing.assert_array_equal(f, x[:2])
        selection.forbid(idx, step + 3)
    # launch 2 failed as it was made: the grid ended there, that step ran under launch 0, the second round followed
    assert t.failed == launches[2] and t.launches == launches[:2]
    assert calls == [launches[0], launches[1], launches[0], launches[1]] + [launches[1]] * 5
    assert ev.tuner is None and ev.relaunched == [launches[1]]
    assert len(forbids) == 9  # one tabu memory, whatever the launch


def test_grid_points_that_make_one_launch_are_timed_once(tmp_path):
    """On 12 items, totals of 16 and 32 threads both give one selection block of 32 threads."""
    launches = [grid_launch(*point) for point in paper_grid(12, 66)]
    assert len(set(launches)) < len(launches)
    _, t = tuner(tmp_path, launches)
    assert t.launches == list(dict.fromkeys(launches)) and t.left == 3 * len(set(launches))
    t.record(1.0)
    t.fail()  # the second launch fails: the grid ends there, though the same launch comes again later
    assert t.launches == launches[:1] and not t.done
