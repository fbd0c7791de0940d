"""A run's budgets as objects that compose (iterations, evaluations, time, target; the natural end is the search's
own), checked by the runner after each step (search/loop.py); the README's "Budgets" says what each means."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mols.errors import OptionError

UNLIMITED = 2**62  # the cap on iterations where only time (or a target, a natural end) ends the run


def iteration_cap(iterations: int | None, evaluations: int | None, n_neighbors: int) -> int:
    """The most iterations the run may make: the iterations budget, and the evaluations that fit the
    evaluations budget (UNLIMITED where neither is given)."""
    cap = UNLIMITED if iterations is None else iterations
    if evaluations is not None:
        if evaluations < n_neighbors:
            raise OptionError("evaluations", f"{evaluations}: fewer than one neighborhood evaluation "
                              f"({n_neighbors} neighbors)")
        cap = min(cap, evaluations // n_neighbors)
    return cap


def target_point(target, problem) -> np.ndarray | None:
    """The target as a vector (one value per objective), or OptionError naming the target."""
    if target is None:
        return None
    point = np.atleast_1d(np.asarray(target, dtype=np.float64))
    k = problem.n_obj
    if point.shape != (k,):
        raise OptionError("target", f": the {problem.name} problem has {k} objective{'s' if k > 1 else ''}; give "
                          f"{k} value{'s' if k > 1 else ''}, one per objective, got {point.size}")
    if not np.all(np.isfinite(point)):
        raise OptionError("target", f": expected finite numbers, got {point.tolist()}")
    return point


def first_at_most(F: np.ndarray, point: np.ndarray) -> int | None:
    """The first row of F at most `point` in every objective, or None."""
    rows = np.flatnonzero((F <= point).all(axis=1))
    return int(rows[0]) if len(rows) else None



@dataclass(frozen=True)
class Reached:
    """When a run first held a solution that weakly dominates its target (one objective: at or below it)."""

    value: float | tuple[float, ...]  # the target
    iteration: int  # neighborhood evaluations by then
    seconds: float  # search time by then (compilation excluded)


class Budget:
    """What ends a run once spent, as pymoo's terminations or ParadisEO's continuators: `spent(search)` is asked
    after each step; `name` is the run's ended_by. `in_loop`: a cap on iterations that the search's loops end at
    themselves (passed down, so a device batch never passes it); the runner then lets the search finish."""

    name = ""
    cap: int | None = None  # the iterations it allows, for a cap
    in_loop = False

    def spent(self, search) -> bool:
        raise NotImplementedError


class Iterations(Budget):
    """At most `count` neighborhood evaluations (iterations)."""

    name = "iterations"

    def __init__(self, count: int, in_loop: bool = False):
        self.cap, self.in_loop = count, in_loop

    def spent(self, search) -> bool:
        return search.iterations >= self.cap


class Evaluations(Iterations):
    """At most `count` neighbors evaluated: the whole neighborhood evaluations that fit."""

    name = "evaluations"

    def __init__(self, count: int, n_neighbors: int, in_loop: bool = False):
        super().__init__(iteration_cap(None, count, n_neighbors), in_loop)


class Time(Budget):
    """At most `seconds` of search (the search's profiler: compilation excluded)."""

    name = "time"

    def __init__(self, seconds: float):
        self.seconds = seconds

    def spent(self, search) -> bool:
        return search.profiler.elapsed() >= self.seconds


class Target(Budget):
    """Spent once the search's archives hold a solution that weakly dominates the target (Search.holds_target); it
    notes when (search.reached)."""

    name = "target"

    def __init__(self, value: float | tuple[float, ...]):
        self.value = value

    def spent(self, search) -> bool:
        if not search.holds_target():
            return False
        search.reached = Reached(self.value, search.iterations, search.profiler.elapsed())
        return True


class Budgets(tuple):
    """Budgets that compose: the run ends at the first spent, in this order (a target before a cap, a cap before the
    time: what ended a run that spent several at one step)."""

    @classmethod
    def of(cls, iterations: int | None, evaluations: int | None, time: float | None, target, n_neighbors: int
           ) -> Budgets:
        """A search's own budgets, its caps passed down to its loops (`target`: the value, or None)."""
        return cls(budget for budget in (
            None if target is None else Target(target),
            None if iterations is None else Iterations(iterations, in_loop=True),
            None if evaluations is None else Evaluations(evaluations, n_neighbors, in_loop=True),
            None if time is None else Time(time)) if budget is not None)

    @property
    def cap(self) -> int:
        """The iterations the caps allow (UNLIMITED where none)."""
        return min((budget.cap for budget in self if budget.cap is not None), default=UNLIMITED)

    def plus(self, more) -> Budgets:
        return Budgets((*self, *more))

    def cap_reached(self, search) -> str:
        """The name of the first cap that `search` has reached ("iterations" where its loops met their own)."""
        return next((budget.name for budget in self if budget.cap is not None and budget.spent(search)), "iterations")
