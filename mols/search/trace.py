"""A run's trace: rows at about log-spaced times (seconds, iterations, neighbors evaluated, archive size, the best value
of each objective, and with several objectives the hypervolume against a reference point fixed for the instance)."""

from __future__ import annotations

import math
from time import perf_counter

import numpy as np

from mols.archive import nondominated
from mols.errors import MolsError
from mols.search.monitor import Monitor

FIRST_SECONDS = 1e-3  # the time grid starts here, and
TIME_FACTOR = 10 ** (1 / 20)  # takes 20 rows a decade, and so does the iterations' grid, so that a short fast run
ITERATION_FACTOR = 10 ** (1 / 20)  # still has rows however quick its steps
SAMPLE, SAMPLE_SEED, PADDING = 100, 0, 0.1  # the reference point: random solutions of a fixed seed, worst values
PENDING = 1_000_000  # objective values of rows held until the rows are read, at most (then they are measured)
COLUMNS = ("seconds", "iterations", "evaluations", "archive")


def reference_point(problem) -> np.ndarray | None:
    """The point hypervolumes are measured up to, the same for every run of the instance (any seed, algorithm or
    backend): the worst value of each objective over SAMPLE random solutions of a fixed seed, moved out by PADDING
    of its size (at least 1), so that local optima and most of their neighbors lie inside; None for one objective."""
    if problem.n_obj == 1:
        return None
    rng = np.random.default_rng(SAMPLE_SEED)
    F = np.asarray(problem.evaluate(np.stack([problem.random_solution(rng) for _ in range(SAMPLE)])), np.float64)
    worst, best = F.max(axis=0), F.min(axis=0)
    return worst + PADDING * np.maximum(np.maximum(np.abs(worst), worst - best), 1.0)


class Trace(Monitor):
    """The trace of a run (a Search, or anything with `problem`, `profiler`, `iterations` and `trace_values()`, which
    gives (iterations, neighbors evaluated, the objective vectors the run holds now, as a new array), or None before
    it holds any).
    A row after the first step, then after each step that passes the next time or iteration of a geometric grid (a
    float and an int compared most steps), and a last one at the end: the run's end state. A row keeps the vectors
    and is measured (size, best values, hypervolume) when the rows are read, so that a short run is not slowed by
    it. `reference`: the hypervolume's point (default: reference_point of the run's problem)."""

    def __init__(self, run, reference: np.ndarray | None = None):
        self.run = run
        self.names = tuple(run.problem.objectives)
        self.multi = len(self.names) > 1
        self.reference = (reference if reference is not None else reference_point(run.problem)) if self.multi else None
        if self.multi:  # imported here, before the run's clock starts (it takes tens of milliseconds)
            import moocore

            self._hypervolume = moocore.hypervolume
        self._rows: list[list] = []
        self._pending: list[tuple[list, np.ndarray]] = []  # rows not measured yet: their first values, their vectors
        self._held = 0  # the objective values they hold
        self._measured = None  # the last front whose hypervolume was measured, and that hypervolume
        self.due_clock, self.due_iterations = 0.0, 0  # the next row's time (perf_counter's) and iteration
        self.ended = False

    @property
    def rows(self) -> list[list]:
        """A list per row, by `columns`."""
        self._measure()
        return self._rows

    @property
    def columns(self) -> tuple[str, ...]:
        return (*COLUMNS, *(f"best_{name}" for name in self.names), *(("hypervolume",) if self.multi else ()))

    def on_step(self, run) -> None:
        if perf_counter() >= self.due_clock or run.iterations >= self.due_iterations:
            self.record(run.profiler.elapsed())

    def on_end(self, run, result) -> None:
        """The last row: the run's end state, at its wall time. The trace then lets the run go: its result keeps the
        trace, and should not keep the search (its evaluator, the device's memory) alive, nor carry it in a pickle."""
        self.record(run.profiler.wall)
        self.ended, self.run = True, None

    def record(self, seconds: float) -> None:
        """A row of the run as it is now, at `seconds`; the grid's next time and iteration after it."""
        values = self.run.trace_values()
        if values is None:
            return
        iterations, evaluations, F = values  # F: an array, or the archives' arrays (never changed in place)
        self._pending.append(([seconds, int(iterations), int(evaluations)], F))
        self._held += sum(part.size for part in F) if isinstance(F, list) else F.size
        if self._held > PENDING:  # a long run's large archives: measured now rather than held
            self._measure()
        run = self.run
        zero = perf_counter() - run.profiler.elapsed()  # the clock's reading at the run's second 0
        self.due_clock = zero + max(seconds * TIME_FACTOR, FIRST_SECONDS)
        done = run.iterations
        self.due_iterations = max(done + 1, math.ceil(done * ITERATION_FACTOR))

    def _measure(self) -> None:
        """The rows held, measured."""
        for first, F in self._pending:
            self._rows.append([*first, *self._front(np.concatenate(F) if isinstance(F, list) else F)])
        self._pending, self._held = [], 0

    def _front(self, F: np.ndarray) -> list:
        """The archive's size (the distinct non-dominated vectors among F), the best value of each objective (NaN
        where F is empty) and the hypervolume."""
        if len(F) == 0:
            return [0, *[math.nan] * len(self.names), *([0.0] if self.multi else [])]
        best = F.min(axis=0).tolist()
        if not self.multi:
            return [1, *best]
        front = F[nondominated(F)].astype(np.float64)  # as the archive keeps them: the first of equal vectors
        if self._measured is None or not np.array_equal(front, self._measured[0]):  # a stalled run: none to measure
            self._measured = front, float(self._hypervolume(front, ref=self.reference))
        return [len(front), *best, self._measured[1]]

    def last(self) -> dict:
        """The last row, by column."""
        return dict(zip(self.columns, self.rows[-1]))

    def state(self) -> dict:
        """What continues this trace in a later run (from_state), as plain lists and numbers: its columns, rows and
        reference point."""
        return {"columns": list(self.columns), "rows": [list(row) for row in self.rows],
                "reference": None if self.reference is None else self.reference.tolist()}

    @classmethod
    def from_state(cls, state: dict, run) -> Trace:
        """The trace of `state` (state()) continued by `run`, the same search resumed: its rows go on from the
        state's, at the seconds of `run`'s clock, which a resumed run takes on from its checkpoint (Profiler.resume;
        its first step makes a row). MolsError where the state's columns are not `run`'s trace's."""
        reference = state.get("reference")
        trace = cls(run, None if reference is None else np.asarray(reference, np.float64))
        if list(state["columns"]) != list(trace.columns):
            raise MolsError(f"a trace of columns {', '.join(state['columns'])} cannot continue in a run whose trace "
                            f"has {', '.join(trace.columns)}")
        trace._rows = [list(row) for row in state["rows"]]
        return trace


def trace_of(run, resume: dict | None = None) -> Trace | None:
    """The trace the runner (search/loop.py) attaches to `run`, given to it (its result carries it): that of the
    checkpoint's state it resumes from (`resume["trace"]`, where it holds one), else the one it holds unless that one
    has ended, else a new Trace; None where `run.traces_searches` says that it is several searches whose own traces
    its monitors tell (a batch)."""
    if getattr(run, "traces_searches", False):
        return None
    if resume is not None and resume.get("trace") is not None:
        run.trace = Trace.from_state(resume["trace"], run)
    elif getattr(run, "trace", None) is None or run.trace.ended:
        run.trace = Trace(run)
    return run.trace
