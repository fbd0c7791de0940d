"""The evaluator protocol every backend implements, and the kernels' state they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from mols.jit import cached_njit
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem
from mols.problems.kernels import Layout

KEY = ((2,), np.dtype(np.uint64))  # a draw key (seed, counter), the last state array of a sampled neighborhood


def describe(problem: Problem, nbh: Neighborhood, n_neighbors: int) -> str:
    """What an evaluator evaluates, for messages about the memory it needs."""
    return f"the {nbh.name} neighborhood of {problem.instance_name} ({n_neighbors:,} neighbors)"


def state_layout(problem: Problem, nbh: Neighborhood) -> Layout:
    """The arrays the kernels read after the problem's data: its state, then the draw key where the
    neighborhood samples."""
    return [*problem.kernels.state_layout(), *([KEY] if nbh.sampled else [])]


def fill_state(problem: Problem, nbh: Neighborhood, x: np.ndarray, key: np.ndarray | None,
               state: tuple[np.ndarray, ...]) -> None:
    """Write x's state and the draw key (which a sampled neighborhood needs) into `state`."""
    if nbh.sampled:
        if key is None:
            raise ValueError(f"the {nbh.name} neighborhood samples: each evaluation needs a draw key")
        problem.kernels.fill_state(np.asarray(x), state[:-1])
        state[-1][:] = key
    else:
        problem.kernels.fill_state(np.asarray(x), state)


def bounds_one_by_one(ev, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
    """Evaluator.neighborhood_bounds by one evaluation per solution."""
    lo = np.empty((len(xs), ev.problem.n_obj))
    hi = np.empty_like(lo)
    for b, (x, key) in enumerate(zip(xs, keys)):
        lo[b], hi[b] = column_bounds(ev.evaluate(x, key))
    return lo, hi


@cached_njit
def column_bounds(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's lowest and highest value over the rows of F, in float64 (inf and -inf without rows)."""
    lo, hi = np.full(F.shape[1], np.inf), np.full(F.shape[1], -np.inf)
    for r in range(F.shape[0]):
        for o in range(F.shape[1]):
            lo[o], hi[o] = min(lo[o], np.float64(F[r, o])), max(hi[o], np.float64(F[r, o]))
    return lo, hi


class Companions:
    """Evaluator.companion for an evaluator that keeps them in its dict `_companions`."""

    _companions: dict

    def companion(self, key, make: Callable[[], object]):
        """Evaluator.companion."""
        if key not in self._companions:
            self._companions[key] = make()
        return self._companions[key]


class Evaluator(Protocol):
    """Evaluates the whole neighborhood of a solution: evaluate(x) -> F (n_neighbors, n_obj).

    Row t of F is the objective vector of neighbor id t. F is the evaluator's own buffer, which
    the next call overwrites (no allocation and no copy in the search loop): copy it to keep it.
    A sampled neighborhood (Neighborhood.sampled) draws its neighbors with `key` (seed, counter).
    Evaluation only: what an algorithm does with F (tabu's selection, PLS's archive) is the algorithm's, built on
    the backend's public pipeline (CpuEvaluator.stage and evaluate_chunk; GpuEvaluator's, docs/internals.md).
    """

    spec: object  # the BackendSpec it was made from (resolved: device cpu or gpu)
    label: str  # how tables name it: cpu x16, cpu x1, gpu, ...
    device: str  # human-readable device name
    n_neighbors: int
    chunk: int  # neighbors per kernel call

    def evaluate(self, x: np.ndarray, key: np.ndarray | None = None) -> np.ndarray: ...

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """For each solution xs[b] (its draw key keys[b], None where the neighborhood does not sample), the
        lowest and highest value of each objective over its neighborhood: lo and hi (B, n_obj), float64. The
        GPU backend evaluates them in one launch on an evaluator of lanes (GpuEvaluator.lanes_evaluator); else one
        after another."""
        ...

    def companion(self, key, make: Callable[[], object]):
        """What make() builds from this evaluator (an algorithm's selection or walker, say), made once per key and
        kept with the evaluator: searches that share the evaluator share it."""
        ...
