"""The elite search (-a elite) resumed from a checkpoint taken at the end of any round ends as the run left whole,
on the CPU and (gpu tests) on the GPU and across the two; snapshots change nothing; a run that walks a step at a
time is refused a checkpoint, naming what would let it resume."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.runner import RunConfig, build_search
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.monitor import Monitor
from tests.resume.cut import assert_resumed_equal, whole_and_resumed

CASES = {  # rounds of 40 steps: tai25a's 6,000 steps are 25 rounds of 6 walks
    "defaults": {},
    "forced swaps": {"aspiration": 60, "replace": 2},
    "tenures redrawn in a round": {"period": 150, "tenures": (0.3, 1.7), "iterations": 24000},
}


def options(backend: str = "cpu", **extra) -> dict:
    return {"instance": "tai25a", "problem": "qap", "algorithm": "elite", "backend": backend, "iterations": 6000,
            "seed": 4, "walkers": 6, "period": 40, **extra}


def config(backend: str = "cpu", **extra) -> RunConfig:
    return RunConfig(**options(backend, **extra))


class Snapshots(Monitor):
    """The search's snapshot after every step (each the end of a round), by the iterations counted then."""

    def __init__(self):
        self.states = {}

    def on_step(self, search) -> None:
        state = search.snapshot()
        assert state is not None
        self.states[search.iterations] = state


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("cut", [1, 2, 13, 24])
def test_a_run_resumed_at_the_end_of_any_round_ends_as_the_run_left_whole(tmp_path, case, cut):
    whole, resumed, problem = whole_and_resumed(tmp_path, cut, **options(**CASES[case]))
    assert_resumed_equal(whole, resumed, problem)
    np.testing.assert_array_equal(whole.archive.X, resumed.archive.X)


def test_snapshots_after_every_round_change_nothing():
    plain, watched = build_search(config()).run(), build_search(config()).run(monitors=[Snapshots()])
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(plain.archive, part), getattr(watched.archive, part))


def test_a_run_resumed_twice_passes_through_the_same_states(tmp_path):
    recorded = Snapshots()
    whole = build_search(config(aspiration=60)).run(monitors=[recorded])
    steps = sorted(recorded.states)
    path = tmp_path / "first.npz"
    save_checkpoint(path, {}, recorded.states[steps[3]])
    again = Snapshots()
    build_search(config(aspiration=60)).run(resume=load_checkpoint(path)[1], monitors=[again])
    save_checkpoint(path, {}, again.states[steps[10]])
    last = Snapshots()
    twice = build_search(config(aspiration=60)).run(resume=load_checkpoint(path)[1], monitors=[last])
    np.testing.assert_array_equal(twice.archive.X, whole.archive.X)
    for step in steps[11:]:
        for key in ("x", "tables", "scores", "elite_members", "left"):
            np.testing.assert_array_equal(last.states[step]["elite"][key], recorded.states[step]["elite"][key])


@pytest.mark.parametrize("flags", [["--launch", "step"], ["--tabu-memory", "moves"], ["--target", "1"]])
def test_walks_a_step_at_a_time_are_refused_a_checkpoint_naming_what_resumes(tmp_path, flags):
    result = CliRunner().invoke(app, ["run", "tai12a", "-p", "qap", "-a", "elite", "-b", "cpu", "-i", "500",
                                      "--checkpoint", "1", "-o", str(tmp_path / "run"), *flags])
    assert result.exit_code == 1, result.output
    assert "--checkpoint" in result.output and "--launch round" in result.output


@pytest.mark.gpu
@pytest.mark.parametrize("cut", [1, 13])
def test_a_gpu_run_resumed_at_the_end_of_a_round_ends_as_the_run_left_whole(tmp_path, cut):
    whole, resumed, problem = whole_and_resumed(tmp_path, cut, **options("gpu", aspiration=60))
    assert_resumed_equal(whole, resumed, problem)
    assert whole.walk == resumed.walk == "device"


@pytest.mark.gpu
@pytest.mark.parametrize("first, then", [("cpu", "gpu"), ("gpu", "cpu")])
def test_a_checkpoint_resumes_on_the_other_backend(tmp_path, first, then):
    recorded = Snapshots()
    whole = build_search(config(first)).run(monitors=[recorded])
    path = tmp_path / "cut.npz"
    save_checkpoint(path, {}, recorded.states[sorted(recorded.states)[5]])
    resumed = build_search(config(then)).run(resume=load_checkpoint(path)[1])
    np.testing.assert_array_equal(resumed.archive.X, whole.archive.X)
