"""Tabu walks: the host walk, a step at a time through the selection, and the device's (gpu_walk.py), one walk or
several side by side on an evaluator of lanes."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.tabu.gpu_walk import DeviceWalk
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.steps import Position, Trail, WalkLane
from mols.backends.launch import lanes_refused
from mols.jit import cached_njit
from mols.neighborhoods import Neighborhood


@cached_njit
def new_bests(scores: np.ndarray, best: float) -> tuple[np.ndarray, int]:
    """new[t]: scores[t] is below `best` and every score before it; and the last such t, or -1."""
    new, last = np.zeros(scores.shape[0], dtype=np.bool_), -1
    for t in range(scores.shape[0]):
        if scores[t] < best:
            new[t], last, best = True, t, scores[t]
    return new, last


def host_walk(ev, nbh: Neighborhood, x: np.ndarray, c: np.ndarray, threshold: float, steps: int,
              tenure: int, keys: np.ndarray | None = None, tabu: np.ndarray | None = None) -> Iterator[Trail]:
    """`steps` tabu steps from x, every move admissible at first (or the moves of `tabu`, WalkLane.tabu, still
    tabu), one step per batch: HostWalk's."""
    return iter(HostWalk(ev, nbh, WalkLane(x, c, threshold, steps, keys, tabu), tenure))


class HostWalk:
    """A tabu walk from the host, one step per batch: each moves to the best admissible neighbor (the evaluator's
    selection, selection.py) and makes the move's inverse tabu for `tenure` steps; the threshold (the aspiration
    level) falls to each step's score when it is lower. The device runs the same walk in batches of steps
    (gpu_walk.py). A sampled neighborhood draws the neighbors of step t with keys[t] (Search.draw_keys). It keeps
    where it stands (position), for a checkpoint. `selection`: the evaluator's (selection_for) unless given (the launch
    tuner's, tuned.py)."""

    def __init__(self, ev, nbh: Neighborhood, lane: WalkLane, tenure: int, selection=None):
        self.nbh, self.lane, self.tenure = nbh, lane, tenure
        self.selection = selection or selection_for(ev)
        self.x, self.walked = lane.x, 0

    def __iter__(self) -> Iterator[Trail]:
        nbh, selection, tenure = self.nbh, self.selection, self.tenure
        x, c, threshold, steps, keys, tabu = self.lane
        selection.allow_all()
        for idx, until in ([] if tabu is None else tabu.T.tolist()):
            selection.forbid(idx, until)
        for step in range(steps):
            key = None if keys is None else keys[step]
            idx, score, f = selection(x, c, step, threshold, key)
            x = nbh.apply_many(x, np.array([idx]), key)[0]
            selection.forbid(nbh.inverse(idx, len(x)), step + 1 + tenure)
            if nbh.forbids_itself:  # 3-exchange: the move taken twice more would come back too
                selection.forbid(idx, step + 1 + tenure)
            threshold = min(threshold, score)
            self.x, self.walked = x, step + 1
            yield x[None], np.array([score]), f[None]

    def position(self) -> Position:
        """Where the walk stands after the step it yielded last."""
        return Position(self.walked, self.x, self.selection.tabu_after(self.walked))


def walks_on_device(ev) -> bool:
    """Whether tabu walks may run on the evaluator's device: one GPU whose spec lets them (device walks, the default
    generation and selection: the study variants are of the host-driven loop, as a split neighborhood is), on a
    problem with an apply kernel."""
    spec = ev.spec
    return (spec.device == "gpu" and spec.gpus == 1 and spec.device_walk and spec.generation == "device"
            and spec.selection == "device"
            and ev.problem.kernels.apply_kernels.get(ev.nbh.name) is not None)


def device_walk(ev, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int,
                keys: np.ndarray | None = None, tabu: np.ndarray | None = None) -> Iterator[Trail] | None:
    """`steps` steps of the walk run on the device (the evaluator's DeviceWalk, made once), as an iterator over
    batches of steps, step t drawing with keys[t] where the neighborhood samples, from the tabu memory `tabu`
    (WalkLane.tabu) where one is given; or None (not walks_on_device), and the search walks from the host."""
    if not walks_on_device(ev):
        return None
    return walker_of(ev)(x, c, threshold, steps, tenure, keys, tabu)


def walker_of(ev) -> DeviceWalk:
    """The evaluator's DeviceWalk over its lanes, made once."""
    return ev.companion("tabu walk", lambda: DeviceWalk(ev, ev.spec.walk_batch))


def shares_launches(ev, lanes: int = 2) -> bool:
    """Whether `lanes` tabu walks can walk side by side on the device: the spec lets them (lanes, device walks),
    the problem has an apply kernel, and lanes_refused finds nothing."""
    return bool(ev.spec.lanes and walks_on_device(ev)
                and not lanes_refused(ev.problem, ev.what, ev.chunk < ev.n_neighbors, lanes))


def lane_walker(ev, lanes: int, rots: tuple[int, int] | None = None) -> DeviceWalk | None:
    """A DeviceWalk over `lanes` walks sharing each launch (on the evaluator of that many lanes, made once; with
    Ro-TS's memory where `rots` gives its (every, slots)), or None where one walk at a time is all there is (fewer
    than 2 lanes, or not shares_launches)."""
    if lanes < 2 or not shares_launches(ev, lanes):
        return None
    on = ev.lanes_evaluator(lanes)
    if rots is None:
        return walker_of(on)
    return on.companion(("rots walk", *rots), lambda: DeviceWalk(on, on.spec.walk_batch, rots))


def neighborhood_bounds(ev, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
    """Evaluator.neighborhood_bounds of the solutions, in one launch on the lanes of lane_walker(len(xs))'s
    evaluator where there is one, else on the evaluator."""
    walker = lane_walker(ev, len(xs))
    return (ev if walker is None else walker.ev).neighborhood_bounds(xs, keys)


def timed(profiler, walk: Iterator) -> Iterator:
    """The walk's batches, the time spent making them counted as evaluation."""
    while True:
        with profiler.section("evaluation"):
            batch = next(walk, None)
        if batch is None:
            return
        yield batch
