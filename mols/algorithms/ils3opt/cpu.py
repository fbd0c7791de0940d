"""The ILS-3opt population on CPU cores: its arrays on the host, ils3opt.ils_population over them (Numba, on
backends/threads.py's numba_threads), merged rounds' merges, and its state between chunks for a checkpoint."""

from __future__ import annotations

import numpy as np

from mols.algorithms.ils3opt.merge import apply_spans, broadcast, empty_spans
from mols.algorithms.ils3opt.population import ils_population, positions
from mols.algorithms.ils3opt.three_opt import candidate_table


class CpuPopulation:
    """The population's arrays on the host; run(it_from, it_to) is ils3opt.ils_population over them (samples 0:
    first improvement, with Or-opt moves where `oropt`, else rkbi); round_state and merge serve merged rounds
    (ils_merge)."""

    def __init__(self, xy, cand, seed, tours, lengths, seg, att, samples: int = 0, oropt: bool = False):
        self.xy, self.seed, self.seg, self.att, self.samples = xy, seed, seg, att, samples
        self.cand = candidate_table(xy, cand, att)
        self.oropt = oropt
        self.tours, self.lengths = tours, lengths.reshape(-1, 1)
        self.pos, self.bests, self.best_pos, self.queues = (np.empty_like(tours) for _ in range(4))
        self.queued = np.zeros(tours.shape, np.uint8)
        self.spans = empty_spans(*tours.shape)
        self.incumbents = None  # merged rounds: (islands, n)

    def run(self, it_from: int, it_to: int, window: int = 0) -> None:
        ils_population(self.xy, self.cand, np.uint64(self.seed), self.tours, self.pos, self.bests, self.best_pos,
                       self.queues, self.queued, self.lengths, it_from, it_to, self.seg, self.samples, self.att,
                       window, self.spans, self.oropt)

    def best_lengths(self) -> np.ndarray:
        return self.lengths[:, 0].copy()

    def best_tour(self, s: int) -> np.ndarray:
        return self.bests[s].copy()

    def round_state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.lengths[:, 0].copy(), self.spans.copy()

    def merge(self, selected: np.ndarray, offset: int, island_lengths: np.ndarray, island: int,
              whole: bool = False) -> None:
        P, n = self.tours.shape
        if self.incumbents is None:
            self.incumbents = np.empty((P // island, n), self.tours.dtype)
        if whole:
            self.spans[selected] = (0, n - 1)
        apply_spans(self.incumbents, self.bests, selected, self.spans, island)
        broadcast(self.incumbents, offset, self.tours, self.pos, self.bests, self.best_pos, self.lengths,
                  island_lengths, self.spans, island)

    def state(self) -> dict:
        """The population between two chunks, for a checkpoint: tours and best tours (int32 (P, n)), lengths (int64
        (P,)), merged rounds' spans (int64 (P, 2)) and incumbents (int32 (islands, n), or None). The rest follows:
        positions from the tours, the queues are empty (every don't-look bit set), the draws count from the
        iteration."""
        return {"tours": self.tours.copy(), "bests": self.bests.copy(), "lengths": self.lengths[:, 0].copy(),
                "spans": self.spans.copy(), "incumbents": None if self.incumbents is None else self.incumbents.copy()}

    def load(self, state: dict) -> None:
        """Go on from state()'s `state` (of a population of this shape, from either backend)."""
        self.tours[:], self.bests[:] = state["tours"], state["bests"]
        self.pos[:], self.best_pos[:] = positions(self.tours), positions(self.bests)
        self.lengths[:, 0], self.spans[:] = state["lengths"], state["spans"]
        self.queued[:] = 0
        incumbents = state["incumbents"]
        self.incumbents = None if incumbents is None else np.array(incumbents, self.tours.dtype)
