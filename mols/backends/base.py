"""The evaluator protocol every backend implements."""

from __future__ import annotations

from typing import Protocol

import numpy as np


class Evaluator(Protocol):
    """Evaluates the whole neighborhood of a solution: evaluate(x) -> F (n_neighbors, n_obj).

    Row t of F is the objective vector of neighbor id t. F is the evaluator's own buffer, which
    the next call overwrites (no allocation and no copy in the search loop): copy it to keep it.
    """

    backend: str  # "cpu" or "gpu"
    device: str  # human-readable device name
    n_neighbors: int

    def evaluate(self, x: np.ndarray) -> np.ndarray: ...
