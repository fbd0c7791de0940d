"""The checkpoint monitor: states taken on the run's thread and written beside it, and a write that fails."""

from __future__ import annotations

import time

from mols.runner import RunConfig, build_search
from mols.search.checkpoint import Checkpoints

CONFIG = {"instance": "020_05_01", "algorithm": "tabu", "backend": "cpu", "iterations": 3000}


def test_states_are_written_beside_the_search_as_they_were_when_taken():
    saved = []

    def save(state):
        time.sleep(0.01)  # a slow disk: the search goes on meanwhile, changing its own arrays
        saved.append(state)

    search = build_search(RunConfig(**CONFIG))
    taken = []
    monitor = Checkpoints(0.001, lambda s: taken.append(s.snapshot()) or taken[-1], save)
    result = search.run(monitors=[monitor])
    assert result.status == "completed" and monitor.written == len(saved) >= 2
    for state in saved:  # as taken: a copy, not the search's arrays that changed after
        original = next(t for t in taken if t["iterations"] == state["iterations"])
        assert state["archive"]["F"].tolist() == original["archive"]["F"].tolist()
        assert state["archive"]["F"] is not original["archive"]["F"]


def test_a_checkpoint_that_cannot_be_written_fails_the_run_with_its_error():
    def save(state):
        raise OSError(28, "No space left on device")

    result = build_search(RunConfig(**CONFIG)).run(monitors=[Checkpoints(0.001, lambda s: s.snapshot(), save)])
    assert result.status == "failed" and "No space left on device" in result.error
    assert result.iterations < 3000
