"""A (1+lambda) evolution strategy: the best of the adaptive neighborhood (neighborhoods/adaptive.py) when it is
better; the radius follows the winner's (twice its step) and shrinks on failure, and below min_radius the search
restarts from a random point."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.es.options import quarter_octaves
from mols.algorithms.tabu.selection import selection_for
from mols.errors import OptionError
from mols.neighborhoods.adaptive import LEVELS, OCTAVES, scaled_key
from mols.search.base import Search

GROW = 4  # levels: the next radius is twice the winner's step (2^(4/4))
SUBSET_STEP, SUBSET_MIN = 2, 4  # the subset chance moves by 2^(1/2), and stays at most 1/2 (so sizes still vary)


class EvolutionStrategy(Search):
    """self.point: (x, f) under way, None before a start; self.levels: [radius level, subset level] (adaptive.py)."""

    def __init__(self, *args, radius: float = 0.25, shrink: float = 0.5, min_radius: float = 1e-12, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.nbh.sampled or self.nbh.encoding != "real" or self.nbh.name != "adaptive":
            raise OptionError("neighborhood", f": es needs the adaptive one (it adapts its radius), not {self.nbh.name}")
        if self.problem.n_obj != 1:
            raise OptionError("algorithm", f": es minimises one objective; {self.problem.name} has "
                              f"{self.problem.n_obj} (choose one with {{objectives}})", "objectives")
        self.first_level, self.shrink = quarter_octaves(radius), max(1, quarter_octaves(shrink))
        self.collapse = quarter_octaves(min_radius)
        self.point: tuple[np.ndarray, np.ndarray] | None = None
        self.levels = [self.first_level, self.first_subset()]
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
        while self.iterations < self.budget:
            if self.point is None:
                self.point = self._random_start()
                self.levels = [self.first_level, self.first_subset()]
            x, f = self.point
            key = self.key()
            with self.profiler.section("evaluation"):
                idx, best, f_new = selection(x, self.c, 0, -np.inf, key)
            if best < f[0]:
                y = self.nbh.apply_many(x, np.array([idx]), key)[0]
                self.adapt(idx, int(np.count_nonzero(y != x)))
                self.point = (y, np.array(f_new))
                with self.profiler.section("archiving"):
                    self.archive.add(self.point[1][None], y[None])
            else:
                self.levels[0] += self.shrink
                if self.levels[0] > self.collapse:
                    self.point = None  # collapsed: the next step restarts
            self.count_iteration()
            yield

    def adapt(self, idx: int, moved: int) -> None:
        """After a success: the radius twice the winner's step (neighbor idx stepped up to the radius / 2^(idx %
        OCTAVES)); each other coordinate's chance up where the winner moved more coordinates than expected, down
        where fewer."""
        radius, subset = self.levels
        self.levels[0] = min(max(radius + 4 * (idx % OCTAVES) - GROW, 0), self.collapse)
        n = self.problem.n
        expected = 1 + (n - 1) * 2.0 ** (-subset / 4)
        if moved > expected:
            subset -= SUBSET_STEP
        elif moved < expected:
            subset += SUBSET_STEP
        self.levels[1] = min(max(subset, SUBSET_MIN), LEVELS - 1)
