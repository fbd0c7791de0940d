"""Tabu search's selection over a neighborhood split across GPUs (backends/split.py): each device reduces its share to
its best admissible pair and its best pair, and the host combines them as one device's final choice would."""

from __future__ import annotations

import numpy as np

from mols.algorithms.tabu.gpu_select import DeviceSelection
from mols.algorithms.tabu.select import chosen, combine_pairs


class SplitSelection:
    """One DeviceSelection per device, each over its share of the ids with the tabu memory of its ids (a forbid goes
    to the device whose share holds the id). A call stages the state once, launches every device's graph, then waits
    for all: the devices evaluate at the same time."""

    def __init__(self, ev):
        self.ev = ev
        self.parts = [DeviceSelection(part, pairs=True) for _, part in ev.each_part()]
        self.block = self.parts[0].block

    def __call__(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None = None):
        """HostSelection's call (selection.py): the devices' pairs combined in id order, so that ties go to the
        lowest id as on one device; only (id, score, F[id]) come back."""
        ev = self.ev
        ev.stage(x, key)
        for d, _ in ev.each_part():
            self.parts[d].launch(c, threshold, step)
        results = [self.parts[d].collect() for d, _ in ev.each_part()]
        ids = np.stack([r[0] for r in results])  # (devices, 2): each device's best admissible, then its best
        scores = np.stack([r[1] for r in results])
        idx, score = chosen(*combine_pairs(ids, scores))
        d, pair = np.argwhere(ids == idx)[0]
        return int(idx), float(score), results[d][2][pair].copy()

    def forbid(self, idx: int, until: int) -> None:
        d = self.ev.owner(idx)
        with self.ev.on(d):
            self.parts[d].forbid(idx, until)

    def allow_all(self) -> None:
        for d, _ in self.ev.each_part():
            self.parts[d].allow_all()

    def tabu_after(self, step: int) -> np.ndarray:
        """HostSelection.tabu_after over every device's share (each holds forbids of its own ids only)."""
        tabu = []
        for d, _ in self.ev.each_part():
            tabu.append(self.parts[d].tabu_after(step))
        return np.concatenate(tabu, axis=1)

    @property
    def graph(self):
        """None: a split selection is several graphs, which no launch probe times (--gpus takes no --tune)."""
        return None
