"""Aggregated tabu search: tabu search on a weighted sum of normalised objectives, once per weight vector.

Normalisation rule: at the start of each weight vector's run, the whole neighborhood of the random
starting solution x0 is evaluated, and objective o is divided by its range r_o there (max - min
over x0 and its neighbors; 1 where that range is 0). The score of a vector f is
sum_o (w_o / r_o) f_o, fixed for the run. So a step across the typical spread of any objective
weighs the same, and tardiness (thousands) cannot drown makespan (tens). With one objective there is
nothing to balance: the score is the objective itself and no neighborhood is evaluated for a range
(so F never has to come to the host, however large the neighborhood).

Tabu memory: applying move m makes its inverse (the move that undoes it) tabu for `tenure`
iterations. A tabu move is still admissible (aspiration) when its score beats the best score of
the run so far. Each iteration moves to the best admissible neighbor, improving or not; on the
GPU that choice is a masked reduction on the device (backends/select.cu), and only the chosen
move comes back; where the problem can move its state on the device, whole batches of steps run
there and only their trail comes back (backends/gpu_walk.py). A sampled neighborhood draws step t's
neighbors with the t-th of the run's draw keys (Search.draw_keys), on the device as on the host. Every
solution visited is offered to the archive, so a run yields a Pareto approximation.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np
from numba import njit

from mols.backends.base import Trail
from mols.backends.select import MAX_TABU_STEP, weighted_scores
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.search.base import Search

DEFAULT_PARTITIONS = 3  # Das-Dennis lattice: 10 weight vectors for 3 objectives


def simplex_lattice(k: int, partitions: int) -> np.ndarray:
    """All weight vectors (W, k) with entries in {0, 1/p, ..., 1} summing to 1 (Das and Dennis)."""
    rows = [c for c in itertools.product(range(partitions + 1), repeat=k) if sum(c) == partitions]
    return np.array(sorted(rows, reverse=True), dtype=np.float64) / partitions


def check_weights(weights, k: int) -> np.ndarray:
    w = np.atleast_1d(np.asarray(weights, dtype=np.float64))
    if w.shape != (k,) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise MolsError(f"--weights: expected {k} non-negative numbers, not all zero; got {w.tolist()}")
    return w / w.sum()


def normalising_coefficients(w: np.ndarray, F: np.ndarray, f: np.ndarray) -> np.ndarray:
    """c_o = w_o / r_o, r_o the range of objective o over f and the rows of F (1 if it is 0)."""
    both = np.vstack([F, f[None]]).astype(np.float64)
    spread = both.max(axis=0) - both.min(axis=0)
    return w / np.where(spread > 0, spread, 1.0)


@njit(cache=True)
def new_bests(scores: np.ndarray, best: float) -> tuple[np.ndarray, int]:
    """new[t]: scores[t] is below `best` and every score before it; and the last such t, or -1."""
    new, last = np.zeros(scores.shape[0], dtype=np.bool_), -1
    for t in range(scores.shape[0]):
        if scores[t] < best:
            new[t], last, best = True, t, scores[t]
    return new, last


def host_walk(ev, nbh: Neighborhood, x: np.ndarray, c: np.ndarray, threshold: float, steps: int,
              tenure: int, keys: np.ndarray | None = None) -> Iterator[Trail]:
    """`steps` tabu steps from x, every move admissible at first, one step per batch: each moves to
    the best admissible neighbor and makes the move's inverse tabu for `tenure` steps; `threshold`
    (the aspiration level) falls to each step's score when it is lower. The device runs the same walk
    in batches of steps (backends/gpu_walk.py). A sampled neighborhood draws the neighbors of step t
    with keys[t] (Search.draw_keys)."""
    ev.allow_all()
    for step in range(steps):
        key = None if keys is None else keys[step]
        idx, score, f = ev.best_weighted(x, c, step, threshold, key)
        x = nbh.apply_many(x, np.array([idx]), key)[0]
        ev.forbid(nbh.inverse(idx, len(x)), step + 1 + tenure)
        threshold = min(threshold, score)
        yield x[None], np.array([score]), f[None]


class AggregatedTabu(Search):
    """The budget is shared evenly by the weight vectors; each starts from a new random solution."""

    def __init__(self, *args, weights=None, partitions: int = DEFAULT_PARTITIONS, tenure: int | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.weights = self._weight_vectors(weights, partitions)
        tenure = self.problem.n if tenure is None else tenure
        if tenure < 0:
            raise MolsError(f"--tenure must be at least 0, got {tenure}")
        self.tenure = min(tenure, self.budget)  # a longer tenure forbids for the whole run all the same
        if self.budget + self.tenure >= MAX_TABU_STEP:
            raise MolsError(f"--iterations {self.budget}: the tabu memory counts steps in 32 bits, so a run takes at "
                            f"most {MAX_TABU_STEP - 1 - self.tenure} iterations with tenure {self.tenure}")

    def _weight_vectors(self, weights, partitions: int) -> np.ndarray:
        """(W, k): the one vector given, or the lattice with `partitions`."""
        k = self.problem.n_obj
        if weights is not None:
            return check_weights(weights, k)[None]
        return simplex_lattice(k, self._check_partitions(partitions, k))

    def _check_partitions(self, partitions: int, k: int) -> int:
        if partitions < 1:
            raise MolsError(f"--partitions must be at least 1, got {partitions}")
        n_vectors = math.comb(partitions + k - 1, k - 1)
        if n_vectors > self.budget:
            raise MolsError(f"--partitions {partitions} gives {n_vectors} weight vectors, more than the "
                            f"{self.budget} iterations of the budget")
        return partitions

    def warm_up(self) -> None:
        super().warm_up()
        x = self.problem.encoding.initial()
        self.evaluator.best_weighted(x, self.weights[0], 0, -np.inf, self.draw_key())
        new_bests(np.zeros(1), 0.0)
        keys = self.draw_keys(self.budget, advance=False)
        walk = self.evaluator.device_walk(x, self.weights[0], -np.inf, self.budget, self.tenure, keys)
        if walk is not None:  # its kernels compiled, and the graph of a whole batch captured
            next(walk)

    def _search(self) -> None:
        n_runs = len(self.weights)
        for r, w in enumerate(self.weights):
            budget = self.budget // n_runs + (r < self.budget % n_runs)
            if budget:
                self._tabu(w, budget)

    def _tabu(self, w: np.ndarray, budget: int, start: tuple[np.ndarray, np.ndarray] | None = None):
        """One tabu run from `start` (x, f), or from a random solution; its best (x, f)."""
        ev = self.evaluator
        x, f = self._random_start() if start is None else start
        c, spent = self._coefficients(w, x, f)
        best = weighted_scores(f[None], c)[0]
        best_xf = x, f
        steps = budget - spent
        keys = self.draw_keys(steps)  # one per step, on the device as on the host
        walk = ev.device_walk(x, c, best, steps, self.tenure, keys)
        self.walk = "host" if walk is None else "device"
        walk = walk or host_walk(ev, self.nbh, x, c, best, steps, self.tenure, keys)
        for X, scores, F in self._timed(walk):
            new, last = new_bests(scores, best)
            if last >= 0:
                best, best_xf = float(scores[last]), (X[last].copy(), F[last].copy())
            if last >= 0 or self.problem.n_obj > 1:  # one objective: only a new best can enter the archive
                offered = new if self.problem.n_obj == 1 else slice(None)
                with self.profiler.section("archiving"):
                    self.archive.add(F[offered], X[offered])
            self._count_iteration(steps=len(scores))
        return best_xf

    def _timed(self, walk: Iterator[Trail]) -> Iterator[Trail]:
        """The walk's batches, the time spent making them counted as evaluation."""
        while True:
            with self.profiler.section("evaluation"):
                batch = next(walk, None)
            if batch is None:
                return
            yield batch

    def _coefficients(self, w: np.ndarray, x: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, int]:
        """The score's coefficients, and the neighborhood evaluations they cost (see the module docstring)."""
        if self.problem.n_obj == 1:
            return w, 0
        with self.profiler.section("evaluation"):
            F = self.evaluator.evaluate(x, self.draw_key())
        self._count_iteration()
        return normalising_coefficients(w, F, f), 1
