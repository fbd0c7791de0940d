"""The evaluator protocol every backend implements, and the kernels' state they share."""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np
from numba import njit

from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem
from mols.problems.kernels import Layout

Trail = tuple[np.ndarray, np.ndarray, np.ndarray]  # tabu steps: solutions visited (m, n), scores (m,), vectors (m, k)


class WalkLane(NamedTuple):
    """One tabu walk: `steps` steps from x, with score coefficients c and aspiration threshold, step t
    drawing with keys[t] where the neighborhood samples (Search.draw_keys)."""

    x: np.ndarray
    c: np.ndarray
    threshold: float
    steps: int
    keys: object = None  # DrawKeys or an array (steps, 2), or None


class LaneBatch(NamedTuple):
    """A batch of steps of walks side by side (algorithms/tabu/gpu_walk.py): walk b took taken[b] steps, and rows
    t < taken[b] of its arrays hold them: the solutions visited X (L, m, n), scores (L, m), vectors F (L, m, k)."""

    taken: np.ndarray
    X: np.ndarray
    scores: np.ndarray
    F: np.ndarray

    def trails(self) -> list[tuple[int, Trail]]:
        """(b, walk b's Trail) for each walk that took steps."""
        return [(b, (self.X[b, :m], self.scores[b, :m], self.F[b, :m])) for b, m in enumerate(self.taken) if m > 0]


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


@njit(cache=True)
def column_bounds(F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's lowest and highest value over the rows of F, in float64 (inf and -inf without rows)."""
    lo, hi = np.full(F.shape[1], np.inf), np.full(F.shape[1], -np.inf)
    for r in range(F.shape[0]):
        for o in range(F.shape[1]):
            lo[o], hi[o] = min(lo[o], np.float64(F[r, o])), max(hi[o], np.float64(F[r, o]))
    return lo, hi


class Evaluator(Protocol):
    """Evaluates the whole neighborhood of a solution: evaluate(x) -> F (n_neighbors, n_obj).

    Row t of F is the objective vector of neighbor id t. F is the evaluator's own buffer, which
    the next call overwrites (no allocation and no copy in the search loop): copy it to keep it.
    A sampled neighborhood (Neighborhood.sampled) draws its neighbors with `key` (seed, counter).
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
        GPU backend evaluates them all in one launch where they fit its lanes; the CPU one after another."""
        ...

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float,
                      key: np.ndarray | None = None) -> tuple[int, float, np.ndarray]:
        """Evaluate the neighborhood of x and return (id, score, F[id]) of its best admissible
        neighbor by score c . F (rule in select.py: a forbidden id is admissible from step
        forbidden_until[id] on, or when its score is below threshold). The GPU backend selects on
        the device and copies back only that."""
        ...

    def device_walk(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int,
                    keys: np.ndarray | None = None):
        """`steps` steps of tabu search's walk (algorithms/tabu/search.py) run on the device, as an iterator over
        batches of steps (Trail), step t drawing with keys[t] where the neighborhood samples; or None,
        and the search walks from the host."""
        ...

    def lane_walk(self, lanes: int):
        """Where several tabu walks can share each launch on the device (the GPU backend, on problems with lane
        kernels): a walker whose `lanes(walks, tenure)` runs up to `lanes` WalkLanes side by side and yields,
        batch by batch, (walk index, Trail) pairs (algorithms/tabu/gpu_walk.py); otherwise None, and the search
        walks them one after another."""
        ...

    def forbid(self, idx: int, until: int) -> None:
        """Make neighbor id idx inadmissible until step `until`."""
        ...

    def allow_all(self) -> None:
        """Make every neighbor admissible again."""
        ...
