"""What tabu walks trade in: a walk to take (WalkLane), the steps taken (Trail, LaneBatch) and a run (TabuRun)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

Trail = tuple[np.ndarray, np.ndarray, np.ndarray]  # tabu steps: solutions visited (m, n), scores (m,), vectors (m, k)


class WalkLane(NamedTuple):
    """One tabu walk: `steps` steps from x, with score coefficients c and aspiration threshold, step t
    drawing with keys[t] where the neighborhood samples (Search.draw_keys)."""

    x: np.ndarray
    c: np.ndarray
    threshold: float
    steps: int
    keys: object = None  # DrawKeys or an array (steps, 2), or None


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
    evaluation that its coefficients take (together.py's set_coefficients), until they are made."""

    lane: WalkLane
    archive: object
    best: float
    best_xf: tuple[np.ndarray, np.ndarray]
    pending: tuple | None = None
