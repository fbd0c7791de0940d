"""Cut a run at a step, resume it from its checkpoint file, and compare the end with the run left whole."""

from __future__ import annotations

from mols.results import front_csv
from mols.runner import RunConfig, build_search
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.monitor import Monitor


class TakeAt(Monitor):
    """The search's snapshot at its `cut`-th step (or the first step after it where it can take one)."""

    def __init__(self, cut: int):
        self.cut, self.steps, self.state = cut, 0, None

    def on_step(self, search) -> None:
        self.steps += 1
        if self.state is None and self.steps >= self.cut:
            self.state = search.snapshot()


def whole_and_resumed(tmp_path, cut: int, **options):
    """(the run left whole, the run resumed from its state at step `cut` through a checkpoint file, the problem)."""
    config = RunConfig(**options)
    take = TakeAt(cut)
    search = build_search(config)
    whole = search.run(monitors=[take])
    assert take.state is not None, f"the run took {take.steps} steps, fewer than {cut}"
    path = tmp_path / f"cut{cut}.npz"
    save_checkpoint(path, {}, take.state)
    _, state = load_checkpoint(path)
    resumed = build_search(config).run(resume=state)
    return whole, resumed, search.problem


def assert_resumed_equal(whole, resumed, problem) -> None:
    """The same front (front.csv's bytes), iterations, starts and end."""
    assert resumed.status == whole.status == "completed", (resumed.error, whole.error)
    assert (resumed.iterations, resumed.starts, resumed.ended_by) == (whole.iterations, whole.starts, whole.ended_by)
    assert front_csv(resumed, problem.objectives, problem.encoding) == \
        front_csv(whole, problem.objectives, problem.encoding)
