"""Candidate lists: each city's k nearest cities from a uniform grid (Numba), in O(n k) memory, never O(n^2), ordered
by squared distance then city index, the TSPLIB distance's order too, so a fixed-radius scan may stop early."""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from mols.errors import MolsError
from mols.jit import cached_njit

DEFAULT_K = 40  # the paper's candidate lists
PER_CELL = 2.0  # cities per grid cell on average


@cached_njit
def _grid(xy, side):
    """Cities bucketed by cell: (first, order, x0, y0, cell, cols, rows); cell c's cities are order[first[c]:first[c+1]]."""
    n = xy.shape[0]
    x0, y0 = xy[:, 0].min(), xy[:, 1].min()
    width = max(xy[:, 0].max() - x0, xy[:, 1].max() - y0, 1e-9)
    cell = width / side
    cols = side
    rows = side
    first = np.zeros(cols * rows + 1, np.int64)
    where = np.empty(n, np.int64)
    for i in range(n):
        cx = min(int((xy[i, 0] - x0) / cell), cols - 1)
        cy = min(int((xy[i, 1] - y0) / cell), rows - 1)
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


@cached_njit(parallel=True)
def _nearest(xy, k, first, order, x0, y0, cell, cols, rows):
    n = xy.shape[0]
    out = np.empty((n, k), np.int32)
    for i in prange(n):
        best_d = np.empty(k, np.float64)
        best_j = np.empty(k, np.int64)
        count = 0
        cx = min(int((xy[i, 0] - x0) / cell), cols - 1)
        cy = min(int((xy[i, 1] - y0) / cell), rows - 1)
        r = 0
        while True:
            for gy in range(cy - r, cy + r + 1):
                for gx in range(cx - r, cx + r + 1):
                    if gx < 0 or gy < 0 or gx >= cols or gy >= rows:
                        continue
                    if max(abs(gx - cx), abs(gy - cy)) != r:  # only the ring r
                        continue
                    c = gy * cols + gx
                    for q in range(first[c], first[c + 1]):
                        j = order[q]
                        if j != i:
                            dx = xy[i, 0] - xy[j, 0]
                            dy = xy[i, 1] - xy[j, 1]
                            count = _offer(best_d, best_j, count, k, dx * dx + dy * dy, j)
            # cities beyond ring r are at least r cells away from city i's cell's border
            if (count == k and (r * cell) ** 2 > best_d[k - 1]) or r > cols + rows:
                break
            r += 1
        for q in range(k):
            out[i, q] = best_j[q]
    return out


def candidate_lists(xy: np.ndarray, k: int = DEFAULT_K) -> np.ndarray:
    """(n, k) int32: row i lists city i's k nearest other cities, nearest first (k is capped at n - 1)."""
    n = xy.shape[0]
    if n < 2:
        raise MolsError("candidate lists need at least 2 cities")
    if k < 1:
        raise MolsError(f"candidate lists need k >= 1, got {k}")
    k = min(k, n - 1)
    side = max(1, int(math.sqrt(n / PER_CELL)))
    return _nearest(np.ascontiguousarray(xy, dtype=np.float64), k, *_grid(np.ascontiguousarray(xy), side))
