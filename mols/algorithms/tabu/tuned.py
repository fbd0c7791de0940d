"""The search's first iterations run the launch tuner (backends/tuning.py's Algorithm 3): each step of tabu's selection
under the next candidate launch, timed, the tabu memory shared by all; the steps are those of any launch."""

from __future__ import annotations

from functools import partial

import numpy as np

from mols.algorithms.tabu.gpu_select import DeviceSelection
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.steps import WalkLane
from mols.algorithms.tabu.walks import HostWalk
from mols.backends.launch import launch_failures
from mols.neighborhoods import Neighborhood


class TuningSelection:
    """DeviceSelection's calls, each under the tuner's current launch (a variant of the evaluator's selection:
    DeviceSelection.variant) and timed by it; a launch that fails to compile or launch ends the tuner's grid there
    and the step runs under the next. Once the tuner is done, under the best launch."""

    def __init__(self, base: DeviceSelection, tuner):
        self.base, self.tuner = base, tuner
        self._variants = {base.ev.launch: base}  # launch -> its DeviceSelection

    def __call__(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None = None):
        tuner = self.tuner
        while not tuner.done:
            try:
                selection = self._variant(tuner.current)
                selection.ev.stage(x, key)
                seconds = tuner.time(partial(selection.launch, c, threshold, step))
                out_id, out_score, out_f = selection.collect()
                chosen = int(out_id[0]), float(out_score[0]), out_f[0].copy()
            except launch_failures():
                tuner.fail()
                continue
            tuner.record(seconds)
            return chosen
        best = tuner.best()  # timed, or the default launch: made already
        if len(self._variants) > 1:
            self._variants = {best: self._variants[best]}  # the others' kernels and graphs let go, once
        return self._variants[best](x, c, step, threshold, key)

    def warm(self) -> None:
        """Every candidate's kernels compiled and graph captured (a search's warm-up: compilation stays out of its
        time); one that fails is left for its step to find."""
        for launch in self.tuner.launches:
            try:
                self._variant(launch)
            except launch_failures():
                pass

    def _variant(self, launch) -> DeviceSelection:
        if launch not in self._variants:
            self._variants[launch] = self.base.variant(self.base.ev.with_launch(launch))
        return self._variants[launch]

    def forbid(self, idx: int, until: int) -> None:
        self.base.forbid(idx, until)

    def allow_all(self) -> None:
        self.base.allow_all()

    def tabu_after(self, step: int) -> np.ndarray:
        return self.base.tabu_after(step)


def tuning_selection(ev) -> TuningSelection | None:
    """The selection through which a search's iterations run the evaluator's launch tuner while it tunes (--tune, no
    launch remembered yet), where tabu's selection is the device's; else None."""
    if ev.spec.device != "gpu" or ev.spec.gpus > 1 or ev.tuner is None:
        return None
    base = selection_for(ev)
    if not isinstance(base, DeviceSelection):
        return None
    return ev.companion("tuning selection", lambda: TuningSelection(base, ev.tuner))


def warm_tuning(ev) -> None:
    """The tuner's candidates made ready (TuningSelection.warm), where one runs."""
    if (selection := tuning_selection(ev)) is not None:
        selection.warm()


def tuning_walk(ev, nbh: Neighborhood, lane: WalkLane, tenure: int) -> HostWalk | None:
    """The first steps of the walk `lane`, as many as the tuner has left to time, from the host through
    TuningSelection; None where no tuner runs (tuning_selection)."""
    selection = tuning_selection(ev)
    if selection is None or lane.steps == 0:
        return None
    return HostWalk(ev, nbh, lane._replace(steps=min(lane.steps, selection.tuner.left)), tenure, selection)
