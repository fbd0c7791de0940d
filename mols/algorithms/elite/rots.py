"""Ro-TS's tabu memory (Taillard 1991) for the elite's walks: per walk, when each value last left each position; a
swap is tabu when both values it places left there within the walk's tenure (host twin of qap.cu's ROTS)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.elite.memory import oldest_swaps
from mols.algorithms.tabu.select import chosen, row_score
from mols.algorithms.tabu.steps import Trail, WalkLane
from mols.jit import cached_njit
from mols.neighborhoods.swap import swap_pairs

LOWEST = -(2 ** 30)  # the tables' floor: older than any aspiration, far from int32's end


@cached_njit
def rots_choice(F, c, left, x, pairs, recent, threshold):
    """(id, score) of the best admissible swap by score c . F (ties to the lowest id; none admissible: the best):
    admissible where one of the values it places left its new position at step `recent` or before, or its score
    is below `threshold` (the walk's best)."""
    best, best_id, any_best, any_id = np.inf, -1, np.inf, -1
    for t in range(F.shape[0]):
        s = row_score(F, c, t)
        if s < any_best:
            any_best, any_id = s, t
        if s < best:
            i, j = pairs[0, t], pairs[1, t]
            if left[x[j], i] <= recent or left[x[i], j] <= recent or s < threshold:
                best, best_id = s, t
    return chosen(best_id, best, any_id, any_best)


class RotsWalk:
    """A walk with Ro-TS's memory from the host, one step per batch (walks.py's HostWalk with this admission rule):
    step t's tenure is tenures[t // every] (the last one after them); `left`, the walk's table, is updated in place,
    and `at` holds where the walk stands."""

    def __init__(self, ev, lane: WalkLane, left: np.ndarray, tenures: np.ndarray, every: int, at: np.ndarray):
        self.ev, self.lane, self.left, self.tenures, self.every, self.at = ev, lane, left, tenures, every, at
        self.pairs = swap_pairs(len(lane.x))

    def __iter__(self) -> Iterator[Trail]:
        x, c, threshold, steps = self.lane[:4]
        c, left, pairs = np.asarray(c, dtype=np.float64), self.left, self.pairs
        for step in range(steps):
            tenure = int(self.tenures[min(step // self.every, len(self.tenures) - 1)])
            F = self.ev.evaluate(x)
            idx, score = rots_choice(F, c, left, x, pairs, step - tenure, threshold)
            i, j = pairs[0, idx], pairs[1, idx]
            left[x[i], i] = left[x[j], j] = step + 1
            x = x.copy()
            x[i], x[j] = x[j], x[i]
            threshold = min(threshold, score)
            self.at[:] = x
            yield x[None], np.array([score]), F[idx][None].copy()


class RotsMemory:
    """The walks' tables left (W, n, n) int32, each relative to its round's first step (step 0), and their tenures
    drawn in [low, high] for each `every` steps of a round (Ro-TS redraws every 2 high steps)."""

    def __init__(self, walkers: int, n: int, tenures: tuple[int, int], period: int):
        self.low, self.high = tenures
        self.every = 2 * self.high
        self.slots = max(1, -(-period // self.every))
        self.left = np.full((walkers, n, n), -self.high, dtype=np.int32)
        self.x = np.zeros((walkers, n), dtype=np.int64)  # where each walk stands after a round
        self.tenures = np.zeros((walkers, self.slots), dtype=np.int64)

    @property
    def device(self) -> tuple[int, int]:
        """lane_walker's `rots`: (every, slots)."""
        return self.every, self.slots

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """The next round's tenures (W, slots), drawn uniformly in the range."""
        self.tenures = rng.integers(self.low, self.high + 1, self.tenures.shape)
        return self.tenures

    def walk(self, ev, b: int, lane: WalkLane) -> RotsWalk:
        """Walk b's round from the host, its table and x kept here."""
        return RotsWalk(ev, lane, self.left[b], self.tenures[b], self.every, self.x[b])

    def end_round(self, lengths: np.ndarray) -> None:
        """A round of lengths[b] steps of each walk b taken: the tables made relative to the next round's step 0."""
        np.maximum(self.left - lengths[:, None, None].astype(np.int32), LOWEST, out=self.left)

    def restart(self, b: int, x: np.ndarray) -> None:
        """Walk b from x with a fresh table: nothing tabu."""
        self.left[b] = -self.high
        self.x[b] = x

    def force(self, walks: list[int], aspiration: int) -> dict[int, tuple[int, int]]:
        """Ro-TS's long-term aspiration at a round's end: for each walk b of `walks`, the swap oldest_swap finds (values
        it places have not been there for more than `aspiration` steps) made, left at step 0 (so tabu as after a
        step); the swaps made, by walk."""
        made = {}
        for b, (r, s) in zip(walks, oldest_swaps(self.left, self.x, np.asarray(walks, dtype=np.int64), aspiration)):
            if r >= 0:
                x = self.x[b]
                self.left[b, x[r], r] = self.left[b, x[s], s] = 0
                x[r], x[s] = x[s], x[r]
                made[b] = (int(r), int(s))
        return made
