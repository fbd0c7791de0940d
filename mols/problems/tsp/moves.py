"""TSPLIB distances and O(1) tour-length deltas of swap, 2-opt and 3-exchange moves (Numba; tsp.cu is their twin), from
the tour-ordered coordinates `txy` and edge lengths `edge`, in float64 without fused multiply-adds (bit for bit)."""

from __future__ import annotations

import math

from mols.jit import cached_njit
from mols.neighborhoods.three_exchange import source


@cached_njit
def distance(ax, ay, bx, by, att):
    """TSPLIB EUC_2D: nint(sqrt(dx^2 + dy^2)); ATT: r = sqrt((dx^2 + dy^2) / 10), nint(r), + 1 if below r."""
    dx = ax - bx
    dy = ay - by
    s = dx * dx + dy * dy
    if att:
        r = math.sqrt(s / 10.0)
        t = int(r + 0.5)
        return t + 1 if t < r else t
    return int(math.sqrt(s) + 0.5)


@cached_njit
def dist_pos(txy, a, b, att):
    """Distance between the cities at tour positions a and b."""
    return distance(txy[a, 0], txy[a, 1], txy[b, 0], txy[b, 1], att)


@cached_njit
def swap_delta(txy, edge, n, i, j, att):
    """Length change when the cities at positions i < j exchange places."""
    before = i - 1 if i > 0 else n - 1
    if i == 0 and j == n - 1:  # neighbors across the wrap: j comes right before i
        return dist_pos(txy, j - 1, i, att) + dist_pos(txy, j, i + 1, att) - edge[j - 1] - edge[i]
    after = j + 1 if j < n - 1 else 0
    if j == i + 1:  # the edge between them stays
        return dist_pos(txy, before, j, att) + dist_pos(txy, i, after, att) - edge[before] - edge[j]
    added = (dist_pos(txy, before, j, att) + dist_pos(txy, j, i + 1, att)
             + dist_pos(txy, j - 1, i, att) + dist_pos(txy, i, after, att))
    return added - edge[before] - edge[i] - edge[j - 1] - edge[j]


@cached_njit
def two_opt_delta(txy, edge, n, i, j, att):
    """Length change when positions i < j are reversed (edges (i-1, i) and (j, j+1) replaced)."""
    if i == 0 and j == n - 1:  # the whole tour backwards: the same cycle
        return 0
    before = i - 1 if i > 0 else n - 1
    after = j + 1 if j < n - 1 else 0
    return dist_pos(txy, before, j, att) + dist_pos(txy, i, after, att) - edge[before] - edge[j]


@cached_njit
def cycle_delta(txy, edge, n, i, j, k, att):
    """Length change when position i takes the city of position k, j that of i and k that of j (3-exchange's cycle
    (i, j, k)): the edges at the three positions, at most six (each counted once), measured anew."""
    ends = (i - 1 if i > 0 else n - 1, i, j - 1 if j > 0 else n - 1, j, k - 1 if k > 0 else n - 1, k)
    total = 0
    for q in range(6):
        p = ends[q]  # the edge from position p to p + 1
        seen = False
        for r in range(q):
            seen = seen or ends[r] == p
        if not seen:
            after = p + 1 if p < n - 1 else 0
            total += dist_pos(txy, source(i, j, k, p), source(i, j, k, after), att) - edge[p]
    return total


@cached_njit
def next_pair(i, j, n):
    """The move after (i, j) in the triangular id order that swap and 2-opt share."""
    if j < n - 1:
        return i, j + 1
    return i + 1, i + 2


@cached_njit
def fill_tour(xy, perm, txy, edge, att):
    """txy (n, 2) and edge (n,) of the tour `perm` over cities xy (n, 2); returns the tour length."""
    n = perm.shape[0]
    for p in range(n):
        txy[p, 0] = xy[perm[p], 0]
        txy[p, 1] = xy[perm[p], 1]
    total = 0
    for p in range(n):
        edge[p] = dist_pos(txy, p, p + 1 if p < n - 1 else 0, att)
        total += edge[p]
    return total
