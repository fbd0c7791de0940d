"""Hill climbing (best improvement, restarted from random solutions at local optima) and iterated local search over
it (climbs from the best local optimum after `strength` random changes), on tabu search's weighted score."""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

from mols.algorithms.descent.its import default_strength, one_weight_vector
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.select import weighted_scores
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.walks import new_bests
from mols.errors import OptionError
from mols.search.base import Search

Climbed = tuple[np.ndarray, np.ndarray, float]  # a local optimum: solution, objective vector, score


class HillClimbing(AggregatedTabu):
    _weight_vectors = one_weight_vector

    def __init__(self, *args, weights=None, **kwargs):
        super().__init__(*args, weights=weights, tenure=0, **kwargs)
        self.c = None  # the score's coefficients, from the first start

    def warm_up(self) -> None:
        Search.warm_up(self)
        selection_for(self.evaluator)(self.problem.encoding.initial(), self.weights[0], 0, -np.inf, self.draw_key())
        new_bests(np.zeros(1), 0.0)

    def steps(self) -> Iterator[None]:
        while self.iterations < self.budget:
            yield from self._climb(*self._random_start())

    def _climb(self, x: np.ndarray, f: np.ndarray) -> Generator[None, None, Climbed]:
        """Best-improvement steps from (x, f) until a local optimum or the end of the budget, a step each; the local
        optimum (Climbed) is the generator's value (`found = yield from`)."""
        if self.c is None:
            self.c, _ = yield from self._coefficients(self.weights[0], x, f)
        score = float(weighted_scores(f[None], self.c)[0])
        selection = selection_for(self.evaluator)  # every move admissible: no tabu memory is written
        while self.iterations < self.budget:
            key = self.draw_key()
            with self.profiler.section("evaluation"):
                idx, best, f_new = selection(x, self.c, 0, -np.inf, key)
            if best >= score:
                self.count_iteration()
                yield
                break
            x, f, score = self.nbh.apply_many(x, np.array([idx]), key)[0], f_new, best
            with self.profiler.section("archiving"):
                self.archive.add(f[None], x[None])
            self.count_iteration()
            yield
        return x, f, score


class IteratedLocalSearch(HillClimbing):
    def __init__(self, *args, strength: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        n = self.problem.encoding.size
        self.strength = default_strength(n) if strength is None else strength
        if not 1 <= self.strength <= n:
            raise OptionError("strength", f"must be in 1..{n} (random changes per perturbation), got {self.strength}")

    def steps(self) -> Iterator[None]:
        best = yield from self._climb(*self._random_start())
        while self.iterations < self.budget:
            y = self.problem.encoding.perturb(best[0], self.rng, self.strength)
            found = yield from self._climb(y, self.problem.evaluate_one(y))
            if found[2] <= best[2]:
                best = found
