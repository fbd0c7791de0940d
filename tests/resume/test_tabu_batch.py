"""A batch of tabu searches in one launch (algorithms/tabu/batch.py) resumed from a checkpoint at any step gives each
search the end it gets left whole, and passes through its states: on the CPU (runs one after another), with walks
side by side (a stand-in walker here, the device's on the GPU)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import together, walks
from mols.backends.spec import BackendSpec
from mols.runner import RunConfig
from mols.runner.batch import build_batch
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.loop import Runner
from mols.search.monitor import Monitor
from tests.resume.cut import assert_resumed_equal
from tests.resume.test_tabu import CASES, HostLanes, assert_same_states

BATCHES = ["tabu-lattice", "tabu-qap", "its-qap", "its-flowshop"]


class EveryStep(Monitor):
    """The batch's snapshot after each step, in order."""

    def __init__(self):
        self.states = []

    def on_step(self, batch) -> None:
        self.states.append(batch.snapshot())


def check_batch(tmp_path, config: RunConfig, size: int, seed: int) -> list:
    """The batch left whole, then resumed at the first step, two at random and the last two: each search ends as
    it ends whole, through the same states."""
    recorded = EveryStep()
    whole = Runner(build_batch(config, size), monitors=[recorded]).run()
    steps = len(recorded.states)
    assert steps >= 3, steps
    rng = np.random.default_rng(seed)
    for cut in sorted({0, *rng.integers(1, steps, size=2).tolist(), steps - 2, steps - 1}):
        save_checkpoint(tmp_path / "batch.npz", {}, recorded.states[cut])
        again = EveryStep()
        batch = build_batch(config, size)
        resumed = Runner(batch, monitors=[again], resume=load_checkpoint(tmp_path / "batch.npz")[1]).run()
        for got, want in zip(resumed, whole, strict=True):
            assert_resumed_equal(want, got, batch.searches[0].problem)
        # the steps after the lead's cap are not told (Runner._at_cap): the resumed run tells one more, once
        for got, want in zip(again.states, recorded.states[cut + 1:]):
            assert_same_states(got, want)
    return whole


@pytest.mark.parametrize("case", BATCHES)
def test_a_batch_resumed_at_any_step_ends_as_left_whole(tmp_path, case):
    config = RunConfig(**{**CASES[case], "iterations": 60}, backend="cpu", seed=3)
    check_batch(tmp_path, config, 3, 3)


@pytest.mark.parametrize("case", BATCHES)
def test_a_batch_side_by_side_resumed_at_any_step_ends_as_left_whole(tmp_path, monkeypatch, case):
    made = {}

    def lane_walker(ev, lanes, rots=None):  # the real one's arguments (Ro-TS's memory: not these tests')
        return made.setdefault((id(ev), lanes), HostLanes(ev, lanes)) if lanes > 1 else None

    for module in (walks, together):
        monkeypatch.setattr(module, "lane_walker", lane_walker)
    whole = check_batch(tmp_path, RunConfig(**CASES[case], backend="cpu", seed=5), 3, 5)
    assert all(result.walk == "device" for result in whole)


@pytest.mark.gpu
@pytest.mark.parametrize("batch", [64, 16])
@pytest.mark.parametrize("case", BATCHES)
def test_a_gpu_batch_resumed_at_any_step_ends_as_left_whole(tmp_path, monkeypatch, case, batch):
    monkeypatch.setattr(RunConfig, "spec", property(lambda config: BackendSpec("gpu", walk_batch=batch)))
    options = {**CASES[case], "iterations": 4 * CASES[case]["iterations"]}  # the lattice's 6 runs: batches of 64
    whole = check_batch(tmp_path, RunConfig(**options, backend="gpu", seed=1), 4, 1)
    assert all(result.walk == "device" for result in whole)
