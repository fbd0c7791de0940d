"""A run's budgets (iterations, evaluations, time, target), and which of them ended it: the first one reached. The
README's "Budgets" says what each means; iterations and evaluations make one cap on iterations (`iteration_cap`)."""

from __future__ import annotations

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
