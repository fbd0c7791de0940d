"""Aggregated tabu search: tabu search on a weighted sum of normalised objectives, once per weight vector, the
vectors' runs walked side by side where the GPU evaluator has lanes; normalisation, tabu memory and the walks:
docs/internals.md."""

from __future__ import annotations

import itertools
import math
from collections.abc import Generator, Iterator
from dataclasses import dataclass

import numpy as np
from numba import njit

from mols.archive.lanes import LaneArchives
from mols.backends.base import LaneBatch, Trail, WalkLane, column_bounds
from mols.algorithms.tabu.select import MAX_TABU_STEP, weighted_scores
from mols.errors import OptionError
from mols.neighborhoods import Neighborhood
from mols.search.base import Search
from mols.search.budget import UNLIMITED, first_at_most
from mols.algorithms.tabu.options import DEFAULT_PARTITIONS


def simplex_lattice(k: int, partitions: int) -> np.ndarray:
    """All weight vectors (W, k) with entries in {0, 1/p, ..., 1} summing to 1 (Das and Dennis)."""
    rows = [c for c in itertools.product(range(partitions + 1), repeat=k) if sum(c) == partitions]
    return np.array(sorted(rows, reverse=True), dtype=np.float64) / partitions


def check_weights(weights, k: int) -> np.ndarray:
    w = np.atleast_1d(np.asarray(weights, dtype=np.float64))
    if w.shape != (k,) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise OptionError("weights", f": expected {k} non-negative numbers, not all zero; got {w.tolist()}")
    return w / w.sum()


def normalising_coefficients(w: np.ndarray, lo: np.ndarray, hi: np.ndarray, f: np.ndarray) -> np.ndarray:
    """c_o = w_o / r_o, r_o the range of objective o over f and its neighborhood's bounds lo and hi
    (Evaluator.neighborhood_bounds), in float64; 1 where it is 0. Each argument (k,), or rows (B, k) of them."""
    f = np.asarray(f, dtype=np.float64)
    ranges = np.maximum(hi, f) - np.minimum(lo, f)
    return w / np.where(ranges > 0, ranges, 1.0)


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
    in batches of steps (algorithms/tabu/gpu_walk.py). A sampled neighborhood draws the neighbors of step t
    with keys[t] (Search.draw_keys)."""
    ev.allow_all()
    for step in range(steps):
        key = None if keys is None else keys[step]
        idx, score, f = ev.best_weighted(x, c, step, threshold, key)
        x = nbh.apply_many(x, np.array([idx]), key)[0]
        ev.forbid(nbh.inverse(idx, len(x)), step + 1 + tenure)
        threshold = min(threshold, score)
        yield x[None], np.array([score]), f[None]


def next_round(rounds: Iterator[list[TabuRun] | None]) -> Generator[None, None, list[TabuRun] | None]:
    """The next list of runs of a search's rounds (AggregatedTabu._rounds), or None once it has made its last (the
    generator's value: `runs = yield from`); it yields at each step counted while making them."""
    for runs in rounds:
        if runs is not None:
            return runs
        yield
    return None


@dataclass
class TabuRun:
    """One tabu run: its walk, the archive its solutions go to, and its best score and (x, f) so far. A run of
    several objectives starts with its weight vector as lane.c, and `pending` the draw key of the neighborhood
    evaluation that its coefficients take (set_coefficients), until they are made."""

    lane: WalkLane
    archive: object
    best: float
    best_xf: tuple[np.ndarray, np.ndarray]
    pending: tuple | None = None


def set_coefficients(runs: list[tuple[AggregatedTabu, TabuRun]]) -> None:
    """The coefficients of the runs that await them (TabuRun.pending), all from one call to the evaluator's
    neighborhood_bounds (one launch on the GPU, where the lanes allow), and their scores and thresholds."""
    waiting = [run for _, run in runs if run.pending is not None]
    if not waiting:
        return
    lead = runs[0][0]
    with lead.profiler.section("evaluation"):
        lo, hi = lead.evaluator.neighborhood_bounds([run.lane.x for run in waiting], [run.pending[0] for run in waiting])
    f = np.array([run.best_xf[1] for run in waiting], dtype=np.float64)
    c = normalising_coefficients(np.array([run.lane.c for run in waiting]), lo, hi, f)
    best = weighted_scores(f, c)
    for run, c_run, best_run in zip(waiting, c, best.tolist()):
        run.best, run.pending = best_run, None
        run.lane = run.lane._replace(c=c_run, threshold=best_run)


def walk_together(runs: list[tuple[AggregatedTabu, TabuRun]]) -> Iterator[None]:
    """Tabu runs of one or more searches that share an evaluator and a tenure (a search's weight vectors, or a
    batch of searches, algorithms/tabu/batch.py): side by side in one launch per kernel where the evaluator has lanes
    for them (Evaluator.lane_walk), else one after another. Side by side, each batch of steps is taken for all
    runs at once (SideBySide.take), one step of the searches (it yields); each run's archive (one per run) is
    brought up to date when the walk ends or stops, and at every batch where its search has a target."""
    set_coefficients(runs)
    lead = runs[0][0]
    walker = lead.evaluator.lane_walk(len(runs))
    if walker is None:
        for search, run in runs:
            yield from search._walk_alone(run)
        return
    for search, _ in runs:
        search.walk = "device"
    together = SideBySide(runs)
    try:
        for batch in lead._timed(walker.batches([run.lane for _, run in runs], lead.tenure)):
            together.take(batch)
            yield
    finally:
        together.hand_back()


class SideBySide:
    """Runs walking side by side: their archives in lanes (LaneArchives), and their best scores and (x, f) in
    arrays, handed back to the runs when the walk ends (hand_back)."""

    def __init__(self, runs: list[tuple[AggregatedTabu, TabuRun]]):
        self.runs, self.lead = runs, runs[0][0]
        self.lanes = LaneArchives([run.archive for _, run in runs])
        self.best = np.array([run.best for _, run in runs], dtype=np.float64)
        self.best_x = np.stack([run.best_xf[0] for _, run in runs])
        self.best_f = np.stack([run.best_xf[1] for _, run in runs])
        self.improved = np.zeros(len(runs), dtype=bool)
        self.goals = any(search.goal is not None for search, _ in runs)
        # each run: its search, and its archive's size to report where that is the search's archive
        self.counted = [(search, run.archive is search.archive, search.target is not None) for search, run in runs]

    def take(self, batch: LaneBatch) -> None:
        """A batch of steps of every run (AggregatedTabu._take's, for all runs at once): the runs' new bests, the
        solutions visited offered to their archives (with one objective, only new bests can enter), then each
        search counts its steps; the runner checks the budgets after all have counted."""
        taken = _cut_at_goals(self.runs, batch) if self.goals else batch.taken
        new, last = lane_new_bests(batch.scores, taken, self.best)
        offered = new if self.lead.problem.n_obj == 1 else np.arange(batch.scores.shape[1]) < taken[:, None]
        with self.lead.profiler.section("archiving"):
            self.lanes.offer(batch.F, batch.X, offered)
        found = np.flatnonzero(last >= 0)
        self.best_x[found], self.best_f[found] = batch.X[found, last[found]], batch.F[found, last[found]]
        self.improved[found] = True
        counts = self.lanes.count
        for b in np.flatnonzero(taken).tolist():
            search, own, targeted = self.counted[b]
            if targeted:
                self.lanes.flush(b)
            search._count_iteration(int(counts[b]) if own else None, steps=int(taken[b]))

    def hand_back(self) -> None:
        """Each run's archive brought up to date, and its best score and (x, f) set."""
        with self.lead.profiler.section("archiving"):
            self.lanes.flush_all()
        for b in np.flatnonzero(self.improved).tolist():
            run = self.runs[b][1]
            run.best, run.best_xf = float(self.best[b]), (self.best_x[b].copy(), self.best_f[b].copy())


def _cut_at_goals(runs: list[tuple[AggregatedTabu, TabuRun]], batch: LaneBatch) -> np.ndarray:
    """Each walk's steps taken, a walk whose search has a target cut at the first step that reaches it (_take's
    rule)."""
    taken = batch.taken.copy()
    for b, (search, _) in enumerate(runs):
        hit = None if search.goal is None else first_at_most(batch.F[b, :taken[b]], search.goal)
        if hit is not None:
            taken[b] = hit + 1
    return taken


@njit(cache=True)
def lane_new_bests(scores: np.ndarray, taken: np.ndarray, best: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """new_bests for each walk b over scores[b, :taken[b]] against best[b] (updated to the walk's new best):
    new (L, m) and last (L,)."""
    new, last = np.zeros(scores.shape, dtype=np.bool_), np.full(scores.shape[0], -1, dtype=np.int64)
    for b in range(scores.shape[0]):
        found, t = new_bests(scores[b, :taken[b]], best[b])
        new[b, :taken[b]] = found
        last[b] = t
        if t >= 0:
            best[b] = scores[b, t]
    return new, last


class AggregatedTabu(Search):
    """The budget is shared evenly by the weight vectors; each starts from a new random solution."""

    def __init__(self, *args, weights=None, partitions: int = DEFAULT_PARTITIONS, tenure: int | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.weights = self._weight_vectors(weights, partitions)
        if tenure is None:
            tenure = self.problem.defaults(self.nbh).tenure or self.problem.n
        if tenure < 0:
            raise OptionError("tenure", f"must be at least 0, got {tenure}")
        self.tenure = min(tenure, self.budget)  # a longer tenure forbids for the whole run all the same
        self._open = []  # the archives of runs not merged yet (_merge)
        if self.budget == UNLIMITED:  # only time (or a target) ends it: as many steps as the tabu memory counts
            if len(self.weights) > 1:
                raise OptionError("algorithm", f"tabu shares its iterations between its {len(self.weights)} weight "
                                  "vectors: give {iterations} or {evaluations} too (or one vector, {weights})",
                                  "iterations", "evaluations", "weights")
            self.budget = MAX_TABU_STEP - 1 - self.tenure
        if self.budget + self.tenure >= MAX_TABU_STEP:
            raise OptionError("iterations", f"{self.budget}: the tabu memory counts steps in 32 bits, so a run takes "
                              f"at most {MAX_TABU_STEP - 1 - self.tenure} iterations with tenure {self.tenure}")

    def _weight_vectors(self, weights, partitions: int) -> np.ndarray:
        """(W, k): the one vector given, or the lattice with `partitions`."""
        k = self.problem.n_obj
        if weights is not None:
            return check_weights(weights, k)[None]
        return simplex_lattice(k, self._check_partitions(partitions, k))

    def _check_partitions(self, partitions: int, k: int) -> int:
        if partitions < 1:
            raise OptionError("partitions", f"must be at least 1, got {partitions}")
        n_vectors = math.comb(partitions + k - 1, k - 1)
        if n_vectors > self.budget:
            raise OptionError("partitions", f"{partitions} gives {n_vectors} weight vectors, more than the "
                              f"{self.budget} iterations of the budget")
        return partitions

    def warm_up(self) -> None:
        super().warm_up()
        x = self.problem.encoding.initial()
        column_bounds(np.zeros((1, self.problem.n_obj), dtype=self.problem.dtype))  # the evaluators' F
        self.evaluator.best_weighted(x, self.weights[0], 0, -np.inf, self.draw_key())
        new_bests(np.zeros(1), 0.0)
        keys = self.draw_keys(self.budget, advance=False)
        walk = self.evaluator.device_walk(x, self.weights[0], -np.inf, self.budget, self.tenure, keys)
        if walk is not None:  # its kernels compiled, and the graph of a whole batch captured
            next(walk)
        self.warm_lanes(len(self.weights))

    def warm_lanes(self, lanes: int) -> None:
        """The walker of `lanes` walks side by side, where the evaluator has one, compiled and the graph of a
        whole batch captured, and what makes their coefficients (neighborhood_bounds) and takes their steps
        (SideBySide.take) compiled (a batch of searches warms its first round's)."""
        walker = self.evaluator.lane_walk(lanes)
        if walker is not None:
            x = self.problem.encoding.initial()
            keys = self.draw_keys(self.budget, advance=False)
            self.evaluator.neighborhood_bounds([x] * lanes, [None if keys is None else keys[0]] * lanes)
            lane = WalkLane(x, self.weights[0], -np.inf, self.budget, keys)
            batch = next(walker.batches([lane] * lanes, self.tenure))
            new, _ = lane_new_bests(batch.scores[:1], batch.taken[:1], np.zeros(1))
            LaneArchives([self.new_archive()]).offer(batch.F[:1], batch.X[:1], new)

    def steps(self) -> Iterator[None]:
        rounds = self._rounds()
        try:
            while (runs := (yield from next_round(rounds))) is not None:
                yield from self._walk_runs(runs)
                self._merge()
        finally:
            self._merge()

    def _rounds(self) -> Iterator[list[TabuRun] | None]:
        """The search's tabu runs, a list at a time, each list made once the one before has been walked (None
        between them: a step counted while making them, next_round); here one list, a run per weight vector, each
        from a random solution with an even share of the budget."""
        n_runs = len(self.weights)
        budgets = [self.budget // n_runs + (r < self.budget % n_runs) for r in range(n_runs)]
        runs = []
        for w, budget in zip(self.weights, budgets):
            runs.append((yield from self._start_run(w, budget, own_archive=n_runs > 1)))
        yield runs

    def _start_run(self, w: np.ndarray, budget: int, start: tuple[np.ndarray, np.ndarray] | None = None,
                   own_archive: bool = False) -> Generator[None, None, TabuRun]:
        """A tabu run from `start` (x, f), or from a random solution (the generator's value: `run = yield from`);
        with `own_archive`, its solutions go to an archive of its own, merged into the search's in the order of the
        runs (_merge). It yields where it counts the evaluation that makes the run's coefficients."""
        archive = self.archive
        if own_archive:
            archive = self.new_archive()
            self._open.append(archive)
        x, f = self._random_start(archive) if start is None else start
        if self.problem.n_obj == 1:  # the score is the objective: no coefficients to make
            best = weighted_scores(f[None], w)[0]
            keys = self.draw_keys(budget)  # one per step, on the device as on the host
            return TabuRun(WalkLane(x, w, best, budget, keys), archive, best, (x, f))
        key = yield from self._counted_key()
        keys = self.draw_keys(budget - 1)
        return TabuRun(WalkLane(x, w, np.inf, budget - 1, keys), archive, np.inf, (x, f), pending=(key,))

    def _walk_runs(self, runs: list[TabuRun]) -> Iterator[None]:
        return walk_together([(self, run) for run in runs])

    def _walk_alone(self, run: TabuRun) -> Iterator[None]:
        for trail in self._timed(self._walk(run.lane)):
            self._take(run, trail)
            yield

    def _walk(self, lane: WalkLane) -> Iterator[Trail]:
        walk = self.evaluator.device_walk(*lane[:4], self.tenure, lane.keys)
        self.walk = "host" if walk is None else "device"
        return walk or host_walk(self.evaluator, self.nbh, *lane[:4], self.tenure, lane.keys)

    def _take(self, run: TabuRun, trail: Trail) -> None:
        """A batch of the run's steps: its new best, and the solutions visited offered to its archive (with one
        objective, only new bests can enter). With a target, the batch ends at the first step that reaches it."""
        X, scores, F = trail
        hit = None if self.goal is None else first_at_most(F, self.goal)
        if hit is not None:
            X, scores, F = X[:hit + 1], scores[:hit + 1], F[:hit + 1]
        new, last = new_bests(scores, run.best)
        if last >= 0:
            run.best, run.best_xf = float(scores[last]), (X[last].copy(), F[last].copy())
        if last >= 0 or self.problem.n_obj > 1:
            offered = new if self.problem.n_obj == 1 else slice(None)
            with self.profiler.section("archiving"):
                run.archive.add(F[offered], X[offered])
        self._count_iteration(steps=len(scores))

    def _merge(self) -> None:
        """The runs' own archives into the search's, in the runs' order: the archive the runs would have given
        one after another, offering to the search's archive (archive/host.py keeps the first of equal vectors)."""
        with self.profiler.section("archiving"):
            for archive in self._open:
                self.archive.add(archive.F, archive.X)
        self._open = []

    def _archives(self) -> list:
        return [self.archive, *self._open]

    def _timed(self, walk: Iterator[Trail]) -> Iterator[Trail]:
        """The walk's batches, the time spent making them counted as evaluation."""
        while True:
            with self.profiler.section("evaluation"):
                batch = next(walk, None)
            if batch is None:
                return
            yield batch

    def _coefficients(self, w: np.ndarray, x: np.ndarray, f: np.ndarray
                      ) -> Generator[None, None, tuple[np.ndarray, int]]:
        """The score's coefficients (docs/internals.md), and the neighborhood evaluations they cost (the generator's
        value: `c, cost = yield from`; it yields where it counts them)."""
        if self.problem.n_obj == 1:
            return w, 0
        key = yield from self._counted_key()
        with self.profiler.section("evaluation"):
            lo, hi = self.evaluator.neighborhood_bounds([x], [key])
        return normalising_coefficients(w, lo[0], hi[0], f), 1

    def _counted_key(self) -> Generator[None, None, np.ndarray | None]:
        """The draw key of the neighborhood evaluation that makes a run's coefficients (the generator's value),
        counted as an iteration: a step."""
        key = self.draw_key()
        self._count_iteration()
        yield
        return key
