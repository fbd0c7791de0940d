"""What tabu walks trade in: a walk to take (WalkLane), the steps taken (Trail, LaneBatch), a run (TabuRun) and where
its walk stands (Position)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

Trail = tuple[np.ndarray, np.ndarray, np.ndarray]  # tabu steps: solutions visited (m, n), scores (m,), vectors (m, k)


class WalkLane(NamedTuple):
    """One tabu walk: `steps` steps from x, with score coefficients c and aspiration threshold, step t
    drawing with keys[t] where the neighborhood samples (Search.draw_keys); a walk resumed from a checkpoint starts
    with the tabu memory `tabu` (Position.tabu), a fresh one with every move admissible."""

    x: np.ndarray
    c: np.ndarray
    threshold: float
    steps: int
    keys: object = None  # DrawKeys or an array (steps, 2), or None
    tabu: np.ndarray | None = None


class Position(NamedTuple):
    """Where a walk stands after the steps the host has taken from it: `walked` steps of its WalkLane, on solution
    x, with the tabu memory `tabu` (2, M) int64: the neighbor ids still tabu, by id, and for how many steps more
    each is (forbidden until step walked + that, select.py's rule)."""

    walked: int
    x: np.ndarray
    tabu: np.ndarray


class LaneBatch(NamedTuple):
    """A batch of steps of walks side by side (gpu_walk.py): walk b took taken[b] steps, and rows t < taken[b] of
    its arrays hold them: the solutions visited X (L, m, n), scores (L, m), vectors F (L, m, k)."""

    taken: np.ndarray
    X: np.ndarray
    scores: np.ndarray
    F: np.ndarray

    def trails(self) -> list[tuple[int, Trail]]:
        """(b, walk b's Trail) for each walk that took steps."""
        return [(b, (self.X[b, :m], self.scores[b, :m], self.F[b, :m])) for b, m in enumerate(self.taken) if m > 0]


@dataclass
class TabuRun:
    """One tabu run: its walk, the archive its solutions go to, and its best score and (x, f) so far. A run of
    several objectives starts with its weight vector as lane.c, and `pending` the draw key of the neighborhood
    evaluation that its coefficients take (together.py's set_coefficients), until they are made. While it walks,
    `at()` says where its walk stands (a checkpoint's question); the aspiration threshold there is `best`. `tenure`:
    its own (None: its search's); `watch`, where given, is told the solutions of each batch of steps taken (m, n)."""

    lane: WalkLane
    archive: object
    best: float
    best_xf: tuple[np.ndarray, np.ndarray]
    pending: tuple | None = None
    at: Callable[[], Position] | None = None
    tenure: int | None = None
    watch: Callable[[np.ndarray], None] | None = None

    def rest(self) -> WalkLane:
        """The walk left to take from where the run's walk stands: all of it before it starts."""
        if self.at is None:
            return self.lane
        walked, x, tabu = self.at()
        if walked == self.lane.steps:
            return self._done()
        lane = self.lane
        return WalkLane(x, lane.c, self.best, lane.steps - walked, _keys_after(lane.keys, walked), tabu)

    def finished(self) -> None:
        """Its walk taken to the end: nothing is left to walk."""
        self.lane, self.at = self._done(), None

    def _done(self) -> WalkLane:
        """A walk taken to its end, the same lane wherever it started and whether it walked alone or beside others
        (a checkpoint's): no step left from its best."""
        lane = self.lane
        return WalkLane(self.best_xf[0], lane.c, self.best, 0, _keys_after(lane.keys, lane.steps))


def _keys_after(keys, walked: int):
    """The draw keys of the steps after the first `walked`: step t of the rest draws with the walk's walked + t."""
    if keys is None or isinstance(keys, np.ndarray):
        return None if keys is None else keys[walked:]
    return replace(keys, first=keys.first + walked, count=keys.count - walked)


def tabu_entries(ids, until) -> np.ndarray:
    """Position.tabu from forbids (id, until) written in this order: each id once, with the last of its values."""
    ids, until = np.asarray(ids, dtype=np.int64), np.asarray(until, dtype=np.int64)
    kept, last = np.unique(ids[::-1], return_index=True)  # the first in reverse: the last written
    return np.stack([kept, until[::-1][last]])
