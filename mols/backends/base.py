"""The evaluator protocol every backend implements."""

from __future__ import annotations

from typing import Protocol

import numpy as np

Trail = tuple[np.ndarray, np.ndarray, np.ndarray]  # tabu steps: solutions visited (m, n), scores (m,), vectors (m, k)


class Evaluator(Protocol):
    """Evaluates the whole neighborhood of a solution: evaluate(x) -> F (n_neighbors, n_obj).

    Row t of F is the objective vector of neighbor id t. F is the evaluator's own buffer, which
    the next call overwrites (no allocation and no copy in the search loop): copy it to keep it.
    """

    backend: str  # "cpu" or "gpu"
    device: str  # human-readable device name
    n_neighbors: int

    def evaluate(self, x: np.ndarray) -> np.ndarray: ...

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float) -> tuple[int, float, np.ndarray]:
        """Evaluate the neighborhood of x and return (id, score, F[id]) of its best admissible
        neighbor by score c . F (rule in select.py: a forbidden id is admissible from step
        forbidden_until[id] on, or when its score is below threshold). The GPU backend selects on
        the device and copies back only that."""
        ...

    def device_walk(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int):
        """`steps` steps of tabu search's walk (search/tabu.py) run on the device, as an iterator over
        batches of steps (Trail); or None, and the search walks from the host."""
        ...

    def forbid(self, idx: int, until: int) -> None:
        """Make neighbor id idx inadmissible until step `until`."""
        ...

    def allow_all(self) -> None:
        """Make every neighbor admissible again."""
        ...
