"""Tabu runs walked together: side by side on an evaluator of lanes (one launch per kernel for all, their archives
in lanes), else one after another; their coefficients made in one call (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.tabu.select import weighted_scores
from mols.algorithms.tabu.steps import LaneBatch, TabuRun
from mols.algorithms.tabu.walks import lane_walker, neighborhood_bounds, new_bests, timed
from mols.algorithms.tabu.weights import normalising_coefficients
from mols.archive.lanes import LaneArchives
from mols.jit import cached_njit
from mols.search.base import Search
from mols.search.budget import first_at_most


def set_coefficients(runs: list[tuple[Search, TabuRun]]) -> None:
    """The coefficients of the runs that await them (TabuRun.pending), all from one call to the evaluator's
    neighborhood_bounds (walks.py's: one launch on the GPU, where the lanes allow), and their scores and
    thresholds."""
    waiting = [run for _, run in runs if run.pending is not None]
    if not waiting:
        return
    lead = runs[0][0]
    with lead.profiler.section("evaluation"):
        lo, hi = neighborhood_bounds(lead.evaluator, [run.lane.x for run in waiting],
                                     [run.pending[0] for run in waiting])
    f = np.array([run.best_xf[1] for run in waiting], dtype=np.float64)
    c = normalising_coefficients(np.array([run.lane.c for run in waiting]), lo, hi, f)
    best = weighted_scores(f, c)
    for run, c_run, best_run in zip(waiting, c, best.tolist()):
        run.best, run.pending = best_run, None
        run.lane = run.lane._replace(c=c_run, threshold=best_run)


def walk_together(runs: list[tuple[Search, TabuRun]], walker_for=None) -> Iterator[None]:
    """Tabu runs of one or more searches that share an evaluator (a search's weight vectors, or a batch of searches,
    batch.py), each with its tenure (AggregatedTabu.tenure_of): side by side in one launch per kernel where the
    evaluator has lanes for them (walks.py's lane_walker), else one after another. Side by side, each batch of
    steps is taken for all
    runs at once (SideBySide.take), one step of the searches (it yields); each run's archive (one per run) is
    brought up to date when the walk ends or stops, at every batch where its search has a target, and at a
    checkpoint (AggregatedTabu.snapshot: each run's `at` is its lane's position). `walker_for(ev, lanes)`: the
    lane walker, where not lane_walker's."""
    set_coefficients(runs)
    if walker_for is None:  # the launch tuner first (it changes the launch under the lanes' evaluator)
        for search, run in runs:
            yield from search.walk_tuning(run)
    lead = runs[0][0]
    walker = (walker_for or lane_walker)(lead.evaluator, len(runs))
    if walker is None:
        for search, run in runs:
            yield from search.walk_alone(run)
        return
    together = SideBySide(runs)
    for b, (search, run) in enumerate(runs):
        search.walk, search.side_by_side = "device", together
        run.at = lambda b=b: walker.position(b)  # asked only at a checkpoint
    try:
        tenures = np.array([search.tenure_of(run) for search, run in runs], dtype=np.int64)
        for batch in timed(lead.profiler, walker.batches([run.lane for _, run in runs], tenures)):
            together.take(batch)
            yield
    finally:
        together.hand_back()
        for search, _ in runs:
            search.side_by_side = None


class SideBySide:
    """Runs walking side by side: their archives in lanes (LaneArchives), and their best scores and (x, f) in
    arrays, handed back to the runs when the walk ends (hand_back)."""

    def __init__(self, runs: list[tuple[Search, TabuRun]]):
        self.runs, self.lead = runs, runs[0][0]
        self.lanes = LaneArchives([run.archive for _, run in runs])
        self.best = np.array([run.best for _, run in runs], dtype=np.float64)
        self.best_x = np.stack([run.best_xf[0] for _, run in runs])
        self.best_f = np.stack([run.best_xf[1] for _, run in runs])
        self.improved = np.zeros(len(runs), dtype=bool)
        self.goals = any(search.goal is not None for search, _ in runs)
        # each run: its search, and its archive's size to report where that is the search's archive
        self.counted = [(search, run.archive is search.archive, search.target is not None) for search, run in runs]
        self.behind = False  # whether a batch was taken since the runs were last handed their archives and bests
        self.watched = [(b, run.watch) for b, (_, run) in enumerate(runs) if run.watch is not None]

    def take(self, batch: LaneBatch) -> None:
        """A batch of steps of every run (AggregatedTabu._take's, for all runs at once): the runs' new bests, the
        solutions visited offered to their archives (with one objective, only new bests can enter), then each
        search counts its steps; the runner checks the budgets after all have counted."""
        self.behind = True
        taken = _cut_at_goals(self.runs, batch) if self.goals else batch.taken
        new, last = lane_new_bests(batch.scores, taken, self.best)
        offered = new if self.lead.problem.n_obj == 1 else np.arange(batch.scores.shape[1]) < taken[:, None]
        with self.lead.profiler.section("archiving"):
            self.lanes.offer(batch.F, batch.X, offered)
        found = np.flatnonzero(last >= 0)
        self.best_x[found], self.best_f[found] = batch.X[found, last[found]], batch.F[found, last[found]]
        self.improved[found] = True
        for b, watch in self.watched:
            watch(batch.X[b, :taken[b]])
        counts = self.lanes.count
        for b in np.flatnonzero(taken).tolist():
            search, own, targeted = self.counted[b]
            if targeted:
                self.lanes.flush(b)
            search.count_iteration(int(counts[b]) if own else None, int(taken[b]))

    def hand_back(self) -> None:
        """Each run's archive brought up to date, and its best score and (x, f) set (once per batch taken: each
        search of a batch asks at a checkpoint)."""
        if not self.behind:
            return
        self.behind = False
        with self.lead.profiler.section("archiving"):
            self.lanes.flush_all()
        for b in np.flatnonzero(self.improved).tolist():
            run = self.runs[b][1]
            run.best, run.best_xf = float(self.best[b]), (self.best_x[b].copy(), self.best_f[b].copy())


def _cut_at_goals(runs: list[tuple[Search, TabuRun]], batch: LaneBatch) -> np.ndarray:
    """Each walk's steps taken, a walk whose search has a target cut at the first step that reaches it (_take's
    rule)."""
    taken = batch.taken.copy()
    for b, (search, _) in enumerate(runs):
        hit = None if search.goal is None else first_at_most(batch.F[b, :taken[b]], search.goal)
        if hit is not None:
            taken[b] = hit + 1
    return taken


@cached_njit
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
