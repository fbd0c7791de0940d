"""Best admissible neighbor by weighted score: the host twin of select.cu.

score(t) = c[0] F[t, 0] + c[1] F[t, 1] + ... in float64, added in that order from 0.0 with no
fused multiply-add, so both backends get the same bits. Neighbor t is admissible at step `step`
when forbidden_until[t] <= step, or when its score is below `threshold` (tabu search's aspiration).
The best is the lowest score, ties going to the lowest id; if no neighbor is admissible, the best
of all of them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long", np.dtype(np.float64): "double"}


@njit(cache=True)
def best_admissible(F, c, forbidden_until, step, threshold):
    """(id, score) of the best admissible row of F (N, k); see the module docstring."""
    best, best_id = np.inf, -1
    any_best, any_id = np.inf, -1
    for t in range(F.shape[0]):
        s = 0.0
        for o in range(F.shape[1]):
            s = s + c[o] * F[t, o]
        if s < any_best:
            any_best, any_id = s, t
        if s < best and (forbidden_until[t] <= step or s < threshold):
            best, best_id = s, t
    if best_id < 0:
        return any_id, any_best
    return best_id, best


def weighted_scores(F: np.ndarray, c: np.ndarray) -> np.ndarray:
    """All scores (N,), in the same order of operations as best_admissible."""
    s = np.zeros(F.shape[0])
    for o in range(F.shape[1]):
        s = s + c[o] * F[:, o]
    return s
