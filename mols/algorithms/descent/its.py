"""Iterated tabu search: AggregatedTabu runs of a fixed length on one weight vector, each from the best solution of
the run before perturbed by random changes (Encoding.perturb), until the budget is spent; the archive keeps the
best solutions visited. Defaults: tenure n / 2, n / 5 changes, runs of 10 n (a problem may give its own)."""

from __future__ import annotations

import numpy as np

from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.weights import check_weights
from mols.errors import OptionError

RUN_LENGTH_PER_SIZE = 10  # default run length: 10 n iterations
# Defaults from a small sweep on tai50a; perturbing the run's own best, not the best of all runs, matters
# more: restarting from the best of all kept returning to the same solutions (docs/internals.md, reports/qap/).


def default_strength(n: int) -> int:
    """Random changes per perturbation: a fifth of the size, at least 2."""
    return max(2, n // 5)


def one_weight_vector(search: AggregatedTabu, weights, partitions: int) -> np.ndarray:
    """A search's weight vectors (1, k): the one given, or equal weights (with one objective, the objective
    itself)."""
    k = search.problem.n_obj
    return check_weights(weights if weights is not None else np.ones(k), k)[None]


class IteratedTabu(AggregatedTabu):
    def __init__(self, *args, weights=None, tenure: int | None = None, strength: int | None = None,
                 run_length: int | None = None, **kwargs):
        super().__init__(*args, weights=weights, tenure=tenure, **kwargs)
        n = self.problem.n
        if tenure is None:
            self.tenure = min(self.problem.defaults(self.nbh).tenure or max(1, n // 2), self.budget)
        self.w = self.weights[0]
        drawn = self.problem.defaults(self.nbh).perturbation if strength is None else None
        self.strength = default_strength(n) if strength is None else strength
        self.strengths = drawn or (self.strength, self.strength)  # each perturbation's changes: drawn in this range
        self.run_length = RUN_LENGTH_PER_SIZE * n if run_length is None else run_length
        if not 1 <= self.strength <= n:
            raise OptionError("strength", f"must be in 1..{n} (random changes per perturbation), got {self.strength}")
        if self.run_length < 1:
            raise OptionError("run_length", f"must be at least 1, got {self.run_length}")
        self.left = self.budget

    _weight_vectors = one_weight_vector

    def rounds(self):
        """One run at a time, each from the run before's best perturbed (None between them: a step counted,
        AggregatedTabu.rounds); self.left: the iterations of the runs not walked yet, the one under way included.
        A search restored from a checkpoint goes on with the run it had made (self.round)."""
        start = None
        while self.left:
            length = min(self.run_length, self.left)
            if self.round:
                run = self.round[0]
            else:
                run = yield from self._start_run(self.w, length, start)
            yield [run]
            self.left -= length
            start = self.perturb(run.best_xf[0]) if self.left else None

    def perturb(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """x after random changes of its encoding (swaps for a permutation), and its vector: `strength` of them,
        or, where the problem draws them (Problem.defaults: the Q3AP's), a number drawn in that range."""
        low, high = self.strengths
        strength = low if low == high else int(self.rng.integers(low, high + 1))
        y = self.problem.encoding.perturb(x, self.rng, strength)
        return y, self.problem.evaluate_one(y)

    def snapshot(self) -> dict:
        return super().snapshot() | {"left": self.left}

    def restore(self, state: dict) -> None:
        super().restore(state)
        self.left = state["left"]
