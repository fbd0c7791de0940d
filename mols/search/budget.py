"""A run's budgets, and which of them ended it.

- iterations: neighborhood evaluations (by default 10,000, unless time or evaluations is given: then none);
- evaluations: neighbors evaluated (iterations x neighbors per evaluation, SearchResult.evaluated_neighbors);
- time: seconds of search (compilation excluded);
- target: an objective vector (one objective: a value); the run ends once its archive holds a point that
  weakly dominates it (one objective: a value at or below it).

The first one reached ends the run. Iterations and evaluations make one cap on iterations (`iteration_cap`),
which every path already honours, the device's batches included (they are cut to the iterations left): an
evaluations budget ends at the last whole neighborhood evaluation that fits. Time is looked at after each
iteration, or each batch of iterations on the device (Search._count_iteration).
"""

from __future__ import annotations

import numpy as np

from mols.errors import MolsError

UNLIMITED = 2**62  # the cap on iterations where only time (or a target, a natural end) ends the run


def iteration_cap(iterations: int | None, evaluations: int | None, n_neighbors: int) -> int:
    """The most iterations the run may make: the iterations budget, and the evaluations that fit the
    evaluations budget (UNLIMITED where neither is given)."""
    cap = UNLIMITED if iterations is None else iterations
    if evaluations is not None:
        if evaluations < n_neighbors:
            raise MolsError(f"--evaluations {evaluations}: fewer than one neighborhood evaluation "
                            f"({n_neighbors} neighbors)")
        cap = min(cap, evaluations // n_neighbors)
    return cap


def target_point(target, problem) -> np.ndarray | None:
    """The target as a vector (one value per objective), or MolsError naming --target."""
    if target is None:
        return None
    point = np.atleast_1d(np.asarray(target, dtype=np.float64))
    k = problem.n_obj
    if point.shape != (k,):
        raise MolsError(f"--target: the {problem.name} problem has {k} objective{'s' if k > 1 else ''}; give "
                        f"{k} value{'s' if k > 1 else ''}, one per objective, got {point.size}")
    if not np.all(np.isfinite(point)):
        raise MolsError(f"--target: expected finite numbers, got {point.tolist()}")
    return point


def first_at_most(F: np.ndarray, point: np.ndarray) -> int | None:
    """The first row of F at most `point` in every objective, or None."""
    rows = np.flatnonzero((F <= point).all(axis=1))
    return int(rows[0]) if len(rows) else None


def parse_target(text: str | None) -> float | tuple[float, ...] | None:
    """--target's values: one number, or numbers separated by commas (one per objective)."""
    if text is None:
        return None
    try:
        values = tuple(float(tok) for tok in text.replace(",", " ").split())
    except ValueError:
        raise MolsError(f"--target: expected numbers separated by commas, got {text!r}") from None
    if not values:
        raise MolsError("--target: expected a value per objective, got nothing")
    return values[0] if len(values) == 1 else values
