"""Hill climbing (best improvement, restarted from random solutions at local optima) and iterated local search over
it (climbs from the best local optimum after `strength` random changes), on tabu search's weighted score."""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

from mols.algorithms.descent.its import default_strength, one_weight_vector
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.select import weighted_scores
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.tuned import tuning_selection, warm_tuning
from mols.algorithms.tabu.walks import new_bests
from mols.algorithms.tabu.weights import normalising_coefficients
from mols.errors import OptionError
from mols.search.base import Search

Climbed = tuple[np.ndarray, np.ndarray, float]  # a point of a climb: solution, objective vector, score


class HillClimbing(AggregatedTabu):
    """The climb under way is self.point (None between climbs), and the score's coefficients self.c, from the first
    start: a checkpoint keeps both."""

    _weight_vectors = one_weight_vector

    def __init__(self, *args, weights=None, **kwargs):
        super().__init__(*args, weights=weights, tenure=0, **kwargs)
        self.c = None  # the score's coefficients, from the first start
        self.point: Climbed | None = None

    def warm_up(self) -> None:
        Search.warm_up(self)
        selection_for(self.evaluator)(self.problem.encoding.initial(), self.weights[0], 0, -np.inf, self.draw_key())
        warm_tuning(self.evaluator)
        new_bests(np.zeros(1), 0.0)

    def steps(self) -> Iterator[None]:
        while self.iterations < self.budget:
            if self.point is None:
                yield from self._climb(*self._next_start())
            else:  # a climb restored from a checkpoint
                yield from self._go_on()

    def _next_start(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the next climb starts: a random solution."""
        return self._random_start()

    def _climb(self, x: np.ndarray, f: np.ndarray) -> Generator[None, None, Climbed]:
        """A climb from (x, f) (_go_on), the score's coefficients made first where they are not yet (with several
        objectives an evaluation: a step, it yields)."""
        counted = self.c is None and self.problem.n_obj > 1
        if self.c is None:
            self.c = self._coefficients(self.weights[0], x, f)
        self.point = (x, f, float(weighted_scores(f[None], self.c)[0]))
        if counted:
            yield
        return (yield from self._go_on())

    def _go_on(self) -> Generator[None, None, Climbed]:
        """Best-improvement steps from self.point until a local optimum (at_optimum) or the end of the budget, a
        step each; where it ended is the generator's value (`found = yield from`)."""
        x, f, score = self.point
        # every move admissible: no tabu memory is written; the first steps run the launch tuner while it tunes
        selection = tuning_selection(self.evaluator) or selection_for(self.evaluator)
        while self.iterations < self.budget:
            key = self.draw_key()
            with self.profiler.section("evaluation"):
                idx, best, f_new = selection(x, self.c, 0, -np.inf, key)
            if best >= score:
                self.at_optimum(self.point)
                self.count_iteration()
                yield
                break
            x, f, score = self.nbh.apply_many(x, np.array([idx]), key)[0], f_new, best
            self.point = (x, f, score)
            with self.profiler.section("archiving"):
                self.archive.add(f[None], x[None])
            self.count_iteration()
            yield
        return x, f, score

    def at_optimum(self, optimum: Climbed) -> None:
        """The climb under way is at a local optimum: the next one starts afresh."""
        self.point = None

    def _coefficients(self, w: np.ndarray, x: np.ndarray, f: np.ndarray) -> np.ndarray:
        """The score's coefficients (docs/internals.md), with one objective the weights; with several, from the
        neighborhood of x, an evaluation counted."""
        if self.problem.n_obj == 1:
            return w
        key = self.draw_key()
        with self.profiler.section("evaluation"):
            lo, hi = self.evaluator.neighborhood_bounds([x], [key])
        self.count_iteration()
        return normalising_coefficients(w, lo[0], hi[0], f)

    def snapshot(self) -> dict:
        return Search.snapshot(self) | {"c": self.c, "point": self.point}

    def restore(self, state: dict) -> None:
        Search.restore(self, state)
        self.c, self.point = state["c"], state["point"]


class IteratedLocalSearch(HillClimbing):
    """self.best: the best local optimum so far (None before the first), which a checkpoint keeps too."""

    def __init__(self, *args, strength: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        n = self.problem.encoding.size
        self.strength = default_strength(n) if strength is None else strength
        if not 1 <= self.strength <= n:
            raise OptionError("strength", f"must be in 1..{n} (random changes per perturbation), got {self.strength}")
        self.best: Climbed | None = None

    def _next_start(self) -> tuple[np.ndarray, np.ndarray]:
        """A random solution first, then the best local optimum after random changes."""
        if self.best is None:
            return self._random_start()
        y = self.problem.encoding.perturb(self.best[0], self.rng, self.strength)
        return y, self.problem.evaluate_one(y)

    def at_optimum(self, optimum: Climbed) -> None:
        """A local optimum at least as good as the best replaces it."""
        super().at_optimum(optimum)
        if self.best is None or optimum[2] <= self.best[2]:
            self.best = optimum

    def snapshot(self) -> dict:
        return super().snapshot() | {"best": self.best}

    def restore(self, state: dict) -> None:
        super().restore(state)
        self.best = state["best"]
