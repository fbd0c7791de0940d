"""Where tabu walks side by side stand after each batch of steps the host has read (DeviceWalk.batches), for a
checkpoint: the device's tabu memory is a batch ahead by then, so the host keeps each walk's last moves."""

from __future__ import annotations

import numpy as np

from mols.algorithms.tabu.steps import Position, WalkLane, tabu_entries
from mols.neighborhoods import Neighborhood


class LanePositions:
    """Walk b's steps taken, its solution (x[b], which the walker moves) and the moves of its last tenure[b] steps
    (a ring as long as the longest tenure: step t in column t % ring), from which position(b) rebuilds its tabu
    memory as the host walk keeps it (walks.py's HostWalk). `tenure`: one for all walks, or one per walk."""

    def __init__(self, walks: list[WalkLane], x: np.ndarray, tenure: int | np.ndarray, nbh: Neighborhood):
        self.x, self.nbh = x, nbh
        self.tenures = np.broadcast_to(np.asarray(tenure, dtype=np.int64), (len(walks),))
        self.tenure = int(self.tenures.max(initial=0))  # the ring's length
        self.walked = np.zeros(len(walks), dtype=np.int64)
        self.start = [w.tabu for w in walks]  # a resumed walk's memory at its step 0
        self.moves = np.zeros((len(walks), self.tenure), dtype=np.int64)

    def took(self, first: int, ids: np.ndarray, taken: np.ndarray) -> None:
        """A batch of steps from step `first` on: walk b took the moves ids[b, :taken[b]] (L, m)."""
        m, ring = ids.shape[1], self.tenure
        if ring:
            whole = taken == m  # a walk that ended inside the batch wrote no move past its end
            later = max(0, m - ring)  # the steps that stay in the ring
            columns = (first + np.arange(later, m)) % ring
            self.moves[np.flatnonzero(whole)[:, None], columns] = ids[whole, later:]
            for b in np.flatnonzero((taken > 0) & ~whole).tolist():
                t = np.arange(max(0, taken[b] - ring), taken[b])
                self.moves[b, (first + t) % ring] = ids[b, t]
        self.walked += taken

    def position(self, b: int) -> Position:
        """Where walk b stands after the last batch read: the forbids it started with still in force, then those of
        its last `tenure` steps (an older step's forbid has expired, and so has any it overwrote: a walk's forbid
        lasts longer than those it started with, which last `tenure` steps at most)."""
        walked, tenure, ring = int(self.walked[b]), int(self.tenures[b]), self.tenure
        ids, until = [], []
        if self.start[b] is not None:
            kept = self.start[b][1] > walked
            ids, until = self.start[b][0][kept].tolist(), (self.start[b][1][kept] - walked).tolist()
        n = self.x.shape[1]
        for t in range(max(0, walked - tenure), walked):  # step t forbade its inverse until t + 1 + tenure
            move = int(self.moves[b, t % ring])
            ids.append(self.nbh.inverse(move, n))
            until.append(t + 1 + tenure - walked)
            if self.nbh.forbids_itself:  # and the move itself, after its inverse (HostWalk's order)
                ids.append(move)
                until.append(t + 1 + tenure - walked)
        return Position(walked, self.x[b].copy(), tabu_entries(ids, until))
