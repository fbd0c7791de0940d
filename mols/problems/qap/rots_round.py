"""Rounds of Ro-TS walks on CPU cores, a core a walk: rots_round.cu's twin (-a elite --launch round), each walk's
choices RotsWalk's (algorithms/elite/rots.py) step for step, every swap's delta kept by Taillard's update (cpu.py)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit
from mols.neighborhoods.swap import swap_pairs
from mols.problems.qap.cpu import (
    fill_state,
    move_delta,
    refresh_pairs_of,
    row_start,
    swap_rows_columns,
    update_row,
)


@cached_njit(parallel=True)
def rots_rounds(A, AT, b, symmetric, X, lefts, tenures, every, lengths, thresholds, best_X, bests, costs, pairs):
    """Walk w: lengths[w] steps from X[w] with its table lefts[w] and tenures[w] (rots_round.cu's arguments, all
    changed in place as the kernel changes them); costs[w] becomes the cost where it stands. A and AT (1, n, n) as
    cpu.py has them; pairs: swap_pairs(n)."""
    for w in prange(X.shape[0]):
        costs[w], thresholds[w], bests[w] = walk_round(A, AT, b, symmetric, X[w], lefts[w], tenures[w], every,
                                                       lengths[w], thresholds[w], bests[w], best_X[w], pairs)


@cached_njit
def walk_round(A, AT, b, symmetric, x, left, tenures, every, steps, threshold, best, best_x, pairs):
    """One walk's round: (its cost where it ends, its threshold, its best); x, left and best_x changed in place.
    BpT is empty where the instance is symmetric (cpu.py's state)."""
    n = x.shape[0]
    Bp = np.empty((n, n), dtype=np.int64)
    BpT = np.empty((0 if symmetric else n, n), dtype=np.int64)
    costs = np.zeros(1, dtype=np.int64)
    fill_state(A, AT, b, x, np.full(n, -1, dtype=x.dtype), costs, Bp, BpT)  # no permutation yet: a rebuild
    cost = costs[0]
    D = np.empty(pairs.shape[1], dtype=np.int64)
    for t in range(D.shape[0]):
        D[t] = move_delta(A, AT, Bp, BpT, 0, pairs[0, t], pairs[1, t])
    for step in range(steps):
        recent = step - tenures[min(step // every, tenures.shape[0] - 1)]
        t, f = round_choice(D, cost, left, x, pairs, recent, threshold)
        i, j = pairs[0, t], pairs[1, t]
        left[x[i], i] = left[x[j], j] = step + 1
        x[i], x[j] = x[j], x[i]
        cost, threshold = f, min(threshold, f)
        if f < best:
            best = f
            best_x[:] = x
        swap_rows_columns(Bp, i, j)
        if BpT.shape[0]:
            swap_rows_columns(BpT, i, j)
        update_deltas(A, AT, Bp, BpT, D, i, j)
    return cost, threshold, best


@cached_njit
def round_choice(D, cost, left, x, pairs, recent, threshold):
    """rots.rots_choice over the costs cost + D: (id, cost) of the best admissible swap, else of the best."""
    best, best_id, any_best, any_id = 0, -1, 0, -1
    for t in range(D.shape[0]):
        f = cost + D[t]
        if any_id < 0 or f < any_best:
            any_best, any_id = f, t
        if best_id < 0 or f < best:
            i, j = pairs[0, t], pairs[1, t]
            if left[x[j], i] <= recent or left[x[i], j] <= recent or f < threshold:
                best, best_id = f, t
    return (any_id, any_best) if best_id < 0 else (best_id, best)


@cached_njit
def update_deltas(A, AT, Bp, BpT, D, r, s):
    """cpu.taillard_update's, on one core: D made the deltas of the new state after the swap (r, s)."""
    BT = Bp if BpT.shape[0] == 0 else BpT
    ca, ct = A[0, r] - A[0, s], AT[0, r] - AT[0, s]
    cb, dt = Bp[r] - Bp[s], BT[r] - BT[s]
    n = Bp.shape[0]
    for u in range(n - 1):
        update_row(ca, ct, cb, dt, D, u)
    for w in range(n):
        refresh_pairs_of(A, AT, Bp, BpT, D, 0, r, s, w)
    D[row_start(r, n) + s - r - 1] = move_delta(A, AT, Bp, BpT, 0, r, s)


class CpuRounds:
    """rots_rounds over an instance's data, called as the device's round kernel is (algorithms/elite/device.py's
    DeviceRounds.run): the walks in parallel over Numba's threads."""

    def __init__(self, A: np.ndarray, AT: np.ndarray, b: np.ndarray, symmetric: bool):
        self.A, self.AT, self.b, self.symmetric = A, AT, b, symmetric
        self.pairs = swap_pairs(b.shape[0])

    def run(self, x: np.ndarray, left: np.ndarray, tenures: np.ndarray, every: int, lengths: np.ndarray,
            threshold: np.ndarray, best_x: np.ndarray, best: np.ndarray) -> dict:
        out = {"x": np.array(x, dtype=np.int64), "cost": np.zeros(len(x), dtype=np.int64),
               "left": np.array(left, dtype=np.int32), "threshold": np.array(threshold, dtype=np.int64),
               "best_x": np.array(best_x, dtype=np.int64), "best": np.array(best, dtype=np.int64)}
        rots_rounds(self.A, self.AT, self.b, self.symmetric, out["x"], out["left"], np.asarray(tenures, np.int64),
                    np.int64(every), np.asarray(lengths, np.int64), out["threshold"], out["best_x"], out["best"],
                    out["cost"], self.pairs)
        return out
