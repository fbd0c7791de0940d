"""Merged ILS-3opt rounds: the population's improvements combined on one tour per island, the largest total gain of
disjoint spans (Numba; ils3opt.cu has the device's copies; docs/internals.md)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit
from mols.neighborhoods.draws import uniform

ROUND = 32  # ILS iterations of every solution between two merges
WINDOW = 100  # double-bridge start positions of a solution in a round
MERGE_STREAM = np.uint64(1 << 63)  # key[1] of the rotations' draws, apart from every solution's s
MIN_CITIES = 200  # fewer cities: merged rounds are not offered (the windows would cover the tour)


def merge_window(n: int, seg: int) -> int:
    """A round's window for n cities and double-bridge segments of 1 .. seg cities (< 1: too few cities)."""
    return min(WINDOW, n - 3 * seg - 2)


def empty_spans(P: int, n: int) -> np.ndarray:
    """Every solution's merged-round span, empty (lo n, hi -1)."""
    spans = np.empty((P, 2), np.int64)
    spans[:, 0], spans[:, 1] = n, -1
    return spans


@cached_njit
def rotation(seed, it_from, n):
    """The offset by which the incumbent is rotated after the round that began at iteration it_from."""
    key = np.array([seed, MERGE_STREAM], dtype=np.uint64)
    return int(uniform(key, it_from, 0) * n)


@cached_njit
def select_spans(deltas, spans, n):
    """The solutions to merge, in increasing order: among those with deltas[s] <= 0 and a non-empty span, the set
    whose edge ranges spans[s, 0] - 1 .. spans[s, 1] are disjoint with the largest total gain -sum(deltas), and
    among those the most solutions (plateau moves: the walk crosses plateaus as the sequential ILS does); a span
    that touches position 0 or n - 1 counts as the whole cycle. Ties go to the set found first by end, then s."""
    ids = np.nonzero((deltas <= 0) & (spans[:, 0] <= spans[:, 1]))[0]
    scale = deltas.shape[0] + 1
    m = ids.shape[0]
    starts, ends = np.empty(m, np.int64), np.empty(m, np.int64)
    for q in range(m):
        lo, hi = spans[ids[q], 0], spans[ids[q], 1]
        whole = lo <= 0 or hi >= n - 1
        starts[q], ends[q] = (-1, n - 1) if whole else (lo - 1, hi)
    order = np.argsort(ends, kind="mergesort")
    sorted_ends = ends[order]
    prev = np.searchsorted(sorted_ends, starts[order], side="left")  # intervals that end before each one starts
    best = np.zeros(m + 1, np.int64)
    take = np.zeros(m, np.bool_)
    for j in range(m):
        with_it = -deltas[ids[order[j]]] * scale + 1 + best[prev[j]]
        take[j] = with_it > best[j]
        best[j + 1] = with_it if take[j] else best[j]
    chosen = []
    j = m
    while j > 0:
        if take[j - 1]:
            chosen.append(ids[order[j - 1]])
            j = prev[j - 1]
        else:
            j -= 1
    return np.sort(np.array(chosen, dtype=np.int64))


@cached_njit
def select_islands(deltas, spans, n, size):
    """select_spans in each island of `size` consecutive solutions (deltas against the island's incumbent)."""
    chosen = np.empty(deltas.shape[0], np.int64)
    m = 0
    for first in range(0, deltas.shape[0], size):
        for s in select_spans(deltas[first:first + size], spans[first:first + size], n):
            chosen[m] = first + s
            m += 1
    return chosen[:m]


@cached_njit
def apply_spans(incumbents, bests, selected, spans, size):
    """The selected solutions' positions copied into their islands' incumbents (island s // size)."""
    for s in selected:
        for p in range(spans[s, 0], spans[s, 1] + 1):
            incumbents[s // size, p] = bests[s, p]


@cached_njit(parallel=True)
def broadcast(incumbents, offset, tours, pos, bests, best_pos, lengths, island_lengths, spans, size):
    """Every solution s restarts from its island's incumbent (s // size) rotated by offset (city
    incumbent[(p + offset) % n] at p), of the island's length, its span empty; the incumbents are rotated too."""
    P, n = tours.shape
    rotated = np.empty_like(incumbents)
    for g in range(incumbents.shape[0]):
        for p in range(n):
            rotated[g, p] = incumbents[g, (p + offset) % n]
    incumbents[:] = rotated
    for s in prange(P):
        for p in range(n):
            c = rotated[s // size, p]
            tours[s, p], bests[s, p], pos[s, c], best_pos[s, c] = c, c, p, p
        lengths[s, 0] = island_lengths[s // size]
        spans[s, 0], spans[s, 1] = n, -1


class MergedRounds:
    """A population run in merged rounds, in islands of `island` consecutive solutions that each share a tour:
    run(it_from, it_to) makes whole rounds (it_from - 1 and it_to - 1 multiples of `round_iterations`; iteration 0
    is every solution's first descent, after which each island's shortest tour becomes its incumbent). The
    population provides run(it_from, it_to, window), round_state() (its lengths (P,) and spans (P, 2) on the host)
    and merge(selected, offset, island_lengths, island)."""

    def __init__(self, pop, seed: int, n: int, window: int, island: int, round_iterations: int = ROUND):
        self.pop, self.seed, self.n, self.window, self.round = pop, seed, n, window, round_iterations
        self.island = island
        self.lengths = None  # (islands,) the incumbents' lengths
        self.merged = 0  # solutions' spans merged so far

    def run(self, it_from: int, it_to: int) -> None:
        if it_from == 0:
            self.pop.run(0, 1)
            lengths, _ = self.pop.round_state()
            by_island = lengths.reshape(-1, self.island)
            first = np.argmin(by_island, axis=1) + np.arange(0, len(lengths), self.island)
            self.lengths = by_island.min(axis=1)
            self.pop.merge(first, rotation(self.seed, 0, self.n), self.lengths, self.island, whole=True)
            it_from = 1
        for a in range(it_from, it_to, self.round):
            self.pop.run(a, a + self.round, self.window)
            lengths, spans = self.pop.round_state()
            deltas = lengths - np.repeat(self.lengths, self.island)
            selected = select_islands(deltas, spans, self.n, self.island)
            np.add.at(self.lengths, selected // self.island, deltas[selected])
            self.merged += len(selected)
            self.pop.merge(selected, rotation(self.seed, a, self.n), self.lengths, self.island)

    def state(self) -> dict:
        """The population's state (its incumbents among it) between rounds, and the incumbents' lengths."""
        return self.pop.state() | {"island_lengths": self.lengths.copy(), "merged": self.merged}

    def load(self, state: dict) -> None:
        self.pop.load(state)
        self.lengths, self.merged = np.array(state["island_lengths"], np.int64), state["merged"]

    def best_lengths(self) -> np.ndarray:
        return self.pop.best_lengths()

    def best_tour(self, s: int) -> np.ndarray:
        return self.pop.best_tour(s)
