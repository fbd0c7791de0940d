"""A (1+lambda) evolution strategy: the best of the adaptive neighborhood (neighborhoods/adaptive.py) when it is
better; the radius follows the winner's (twice its step) and shrinks on failure, and after `patience` failures in a
row below min_radius it starts again at the first radius, from the best point (or from a random one)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.es.options import quarter_octaves
from mols.algorithms.tabu.selection import selection_for
from mols.errors import OptionError
from mols.neighborhoods.adaptive import LEVELS, OCTAVES, scaled_key
from mols.search.base import Search

GROW = 4  # levels: the next radius is twice the winner's step (2^(4/4))
ARCHIVE_EVERY = 64  # iterations: the point under way is evaluated in full and offered to the archive this often
SUBSET_STEP, SUBSET_MIN = 2, 4  # the subset chance moves by 2^(1/2), and stays at most 1/2 (so sizes still vary)


class EvolutionStrategy(Search):
    """self.point: (x, f) under way, None before a start; self.levels: [radius level, subset level] (adaptive.py);
    self.stalled: failures in a row below min_radius; self.pending: the point has improved since it was archived.
    f is the kernel's value (incremental kernels: within rounding of the full one); the archive gets the point
    with its full value (problem.evaluate_one) every ARCHIVE_EVERY iterations, before a restart and at the end,
    which costs far less than a full evaluation at each success (n x 100 sines on the host for Weierstrass)."""

    resumable = True  # snapshot() adds the point, the levels and the counters

    def __init__(self, *args, radius: float = 0.5, shrink: float = 0.5, min_radius: float = 1e-12,
                 patience: int = 8, restart: str = "radius", **kwargs):
        super().__init__(*args, **kwargs)
        if not self.nbh.sampled or self.nbh.encoding != "real" or self.nbh.name != "adaptive":
            raise OptionError("neighborhood", f": es needs the adaptive one (it adapts its radius), not {self.nbh.name}")
        if self.problem.n_obj != 1:
            raise OptionError("algorithm", f": es minimises one objective; {self.problem.name} has "
                              f"{self.problem.n_obj} (choose one with {{objectives}})", "objectives")
        self.first_level, self.shrink = quarter_octaves(radius), max(1, quarter_octaves(shrink))
        self.collapse, self.patience, self.restart = quarter_octaves(min_radius), patience, restart
        self.point: tuple[np.ndarray, np.ndarray] | None = None
        self.levels = [self.first_level, self.first_subset()]
        self.stalled, self.pending, self.since_archived = 0, False, 0
        self.c = np.ones(1)

    def first_subset(self) -> int:
        """Each other coordinate moves with chance 1 / n at first (about 2 coordinates a neighbor)."""
        return min(LEVELS - 1, max(SUBSET_MIN, quarter_octaves(1.0 / max(self.problem.n, 1))))

    def warm_up(self) -> None:
        super().warm_up()
        selection_for(self.evaluator)(self.problem.encoding.initial(), self.c, 0, -np.inf, self.key())

    def key(self) -> np.ndarray:
        """The next evaluation's draw key, with the current levels."""
        return scaled_key(self.draw_key(), *self.levels)

    def steps(self) -> Iterator[None]:
        selection = selection_for(self.evaluator)  # every neighbor admissible: no tabu memory is written
        try:
            while self.iterations < self.budget:
                if self.point is None:
                    self.point = self._random_start()
                    self.levels, self.stalled, self.since_archived = [self.first_level, self.first_subset()], 0, 0
                self.step(selection)
                self.count_iteration()
                yield
        finally:
            self.archive_point()

    def step(self, selection) -> None:
        """One evaluation: the best neighbor replaces the point where better; else the radius shrinks, and after
        `patience` failures in a row below min_radius the point is archived and dropped (the next step restarts)."""
        x, f = self.point
        key = self.key()
        with self.profiler.section("evaluation"):
            idx, best, f_new = selection(x, self.c, 0, -np.inf, key)
        y = self.nbh.apply_many(x, np.array([idx]), key)[0]
        moved = int(np.count_nonzero(y != x))  # 0: clipped back onto x, "better" only by the rounding of f
        if best < f[0] and moved:
            self.adapt(idx, moved)
            self.point, self.pending, self.stalled = (y, np.array(f_new)), True, 0
        else:
            self.levels[0] = min(self.levels[0] + self.shrink, LEVELS - 1)
            self.stalled += self.levels[0] > self.collapse
            if self.stalled >= self.patience:
                self.archive_point()
                if self.restart == "point":
                    self.point = None  # collapsed: the next step restarts
                    return
                self.levels, self.stalled = [self.first_level, self.first_subset()], 0
        self.since_archived += 1
        if self.since_archived >= ARCHIVE_EVERY:
            self.archive_point()

    def archive_point(self) -> None:
        """The point under way, with its full value, offered to the archive where it improved since the last time."""
        self.since_archived = 0
        if self.point is None or not self.pending:
            return
        with self.profiler.section("archiving"):
            x = self.point[0]
            self.point = (x, self.problem.evaluate_one(x))
            self.archive.add(self.point[1][None], x[None])
        self.pending = False

    def snapshot(self) -> dict | None:
        point = None if self.point is None else {"x": self.point[0].copy(), "f": self.point[1].copy()}
        return super().snapshot() | {"point": point, "levels": list(self.levels), "stalled": self.stalled,
                                     "pending": self.pending, "since_archived": self.since_archived}

    def restore(self, state: dict) -> None:
        super().restore(state)
        point = state["point"]
        self.point = None if point is None else (np.asarray(point["x"]), np.asarray(point["f"]))
        self.levels, self.stalled = [int(v) for v in state["levels"]], int(state["stalled"])
        self.pending, self.since_archived = bool(state["pending"]), int(state["since_archived"])

    def adapt(self, idx: int, moved: int) -> None:
        """After a success: the radius twice the winner's step (neighbor idx stepped up to the radius / 2^(idx %
        OCTAVES)); each other coordinate's chance up where the winner moved more coordinates than expected, down
        where fewer."""
        radius, subset = self.levels
        self.levels[0] = min(max(radius + 4 * (idx % OCTAVES) - GROW, 0), LEVELS - 1)
        n = self.problem.n
        expected = 1 + (n - 1) * 2.0 ** (-subset / 4)
        if moved > expected:
            subset -= SUBSET_STEP
        elif moved < expected:
            subset += SUBSET_STEP
        self.levels[1] = min(max(subset, SUBSET_MIN), LEVELS - 1)
