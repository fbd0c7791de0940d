"""Candidate lists: each city's k nearest cities (or each quadrant's nearest first) from a uniform grid (Numba), in
O(n k) memory, never O(n^2), ordered by squared distance then city index, the TSPLIB distance's order too, so a
fixed-radius scan may stop early."""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from mols.errors import MolsError
from mols.jit import cached_njit

DEFAULT_K = 40  # the paper's candidate lists
PER_CELL = 2.0  # cities per grid cell on average


@cached_njit
def city_grid(xy):
    """Cities (n, 2) bucketed in square cells, PER_CELL a cell on average: (first, order, x0, y0, cell, cols, rows);
    cell c's cities are order[first[c]:first[c+1]], in index order."""
    n = xy.shape[0]
    side = max(1, int(math.sqrt(n / PER_CELL)))
    x0, y0 = xy[:, 0].min(), xy[:, 1].min()
    width = max(xy[:, 0].max() - x0, xy[:, 1].max() - y0, 1e-9)
    cell = width / side
    cols = side
    rows = side
    first = np.zeros(cols * rows + 1, np.int64)
    where = np.empty(n, np.int64)
    for i in range(n):
        cx, cy = grid_cell(xy, i, x0, y0, cell, cols, rows)
        where[i] = cy * cols + cx
        first[where[i] + 1] += 1
    for c in range(cols * rows):
        first[c + 1] += first[c]
    fill = first[:-1].copy()
    order = np.empty(n, np.int64)
    for i in range(n):
        order[fill[where[i]]] = i
        fill[where[i]] += 1
    return first, order, x0, y0, cell, cols, rows


@cached_njit
def grid_cell(xy, i, x0, y0, cell, cols, rows):
    """City i's cell (column, row) in city_grid's grid."""
    return min(int((xy[i, 0] - x0) / cell), cols - 1), min(int((xy[i, 1] - y0) / cell), rows - 1)


@cached_njit
def _offer(best_d, best_j, count, k, d, j):
    """Insert (d, j) into the sorted buffer of the best `count` <= k; returns the new count."""
    if count == k and (d > best_d[k - 1] or (d == best_d[k - 1] and j > best_j[k - 1])):
        return count
    p = count if count < k else k - 1
    while p > 0 and (best_d[p - 1] > d or (best_d[p - 1] == d and best_j[p - 1] > j)):
        best_d[p] = best_d[p - 1]
        best_j[p] = best_j[p - 1]
        p -= 1
    best_d[p] = d
    best_j[p] = j
    return min(count + 1, k)


@cached_njit
def _full(count, best_d, k, bound):
    """Whether a buffer of the k best holds k cities, all nearer than `bound` (squared): none beyond can enter."""
    return count == k and bound > best_d[k - 1]


@cached_njit
def _merged(out, best_d, best_j, count, quad_d, quad_j, quad_count, k):
    """out (k,): the quadrants' picks, filled up with the nearest others, all in the lists' order."""
    sel_d, sel_j, m = np.empty(k, np.float64), np.empty(k, np.int64), 0
    for a in range(4):
        for b in range(quad_count[a]):
            m = _offer(sel_d, sel_j, m, k, quad_d[a, b], quad_j[a, b])
    for b in range(count):
        if m == k:
            break
        if best_j[b] not in sel_j[:m]:
            m = _offer(sel_d, sel_j, m, k, best_d[b], best_j[b])
    out[:] = sel_j


@cached_njit(parallel=True)
def _lists(xy, k, per, first, order, x0, y0, cell, cols, rows):
    """Row i: city i's k nearest other cities; where per > 0, the `per` nearest in each quadrant around it first
    (fewer where a quadrant has fewer), filled up with the nearest; both ordered by squared distance, then index."""
    n = xy.shape[0]
    out = np.empty((n, k), np.int32)
    for i in prange(n):
        best_d, best_j = np.empty(k, np.float64), np.empty(k, np.int64)
        quad_d, quad_j = np.empty((4, max(per, 1)), np.float64), np.empty((4, max(per, 1)), np.int64)
        count, quad_count = 0, np.zeros(4, np.int64)
        cx, cy = grid_cell(xy, i, x0, y0, cell, cols, rows)
        r = 0
        while True:
            for gy in range(max(cy - r, 0), min(cy + r, rows - 1) + 1):
                for gx in range(max(cx - r, 0), min(cx + r, cols - 1) + 1):
                    if max(abs(gx - cx), abs(gy - cy)) != r:  # only the ring r
                        continue
                    c = gy * cols + gx
                    for q in range(first[c], first[c + 1]):
                        j = order[q]
                        if j != i:
                            dx, dy = xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1]
                            d = dx * dx + dy * dy
                            count = _offer(best_d, best_j, count, k, d, j)
                            if per > 0:
                                a = 2 * (dx >= 0) + (dy >= 0)
                                quad_count[a] = _offer(quad_d[a], quad_j[a], quad_count[a], per, d, j)
            # cities beyond ring r are at least r cells away from city i's cell's border
            bound = (r * cell) ** 2
            done = _full(count, best_d, k, bound)
            for a in range(4 if per > 0 else 0):
                done = done and _full(quad_count[a], quad_d[a], per, bound)
            if done or r > cols + rows:
                break
            r += 1
        if per > 0:
            _merged(out[i], best_d, best_j, count, quad_d, quad_j, quad_count, k)
        else:
            for q in range(k):
                out[i, q] = best_j[q]
    return out


def candidate_lists(xy: np.ndarray, k: int = DEFAULT_K, quadrant: bool = False) -> np.ndarray:
    """(n, k) int32: row i lists city i's k nearest other cities, nearest first (k is capped at n - 1); quadrant:
    the k // 4 nearest in each quadrant around city i first, then the nearest (clustered instances)."""
    n = xy.shape[0]
    if n < 2:
        raise MolsError("candidate lists need at least 2 cities")
    if k < 1:
        raise MolsError(f"candidate lists need k >= 1, got {k}")
    k = min(k, n - 1)
    xy = np.ascontiguousarray(xy, dtype=np.float64)
    return _lists(xy, k, k // 4 if quadrant else 0, *city_grid(xy))
