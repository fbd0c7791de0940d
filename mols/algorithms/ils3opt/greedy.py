"""A greedy-edge start tour for ILS-3opt (--start-tours greedy): the shortest candidate edges that keep every city's
degree at most 2 and close no cycle, then the fragments joined, each to the nearest free end of another."""

from __future__ import annotations

import numpy as np

from mols.jit import cached_njit
from mols.problems.tsp.moves import distance


@cached_njit
def _find(parent, a):
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@cached_njit
def greedy_fragments(xy, cand, att):
    """The edges taken (neighbours (n, 2), -1 where none; degrees (n,)): the candidate edges {i, cand[i, q]} by
    length, ties by the lower city then the higher, each taken where both its cities have fewer than 2 and it closes
    no cycle."""
    n, k = cand.shape
    keys = np.empty(n * k, np.int64)
    for i in range(n):
        for q in range(k):
            j = cand[i, q]
            d = distance(xy[i, 0], xy[i, 1], xy[j, 0], xy[j, 1], att)
            keys[i * k + q] = (d * n + min(i, j)) * n + max(i, j)
    keys = np.unique(keys)  # sorted; an edge in both cities' lists once
    parent, degree = np.arange(n), np.zeros(n, np.int64)
    neighbours = np.full((n, 2), -1, np.int64)
    for key in keys:
        i, j = (key // n) % n, key % n
        if degree[i] < 2 and degree[j] < 2:
            ri, rj = _find(parent, i), _find(parent, j)
            if ri != rj:
                parent[ri] = rj
                neighbours[i, degree[i]], neighbours[j, degree[j]] = j, i
                degree[i] += 1
                degree[j] += 1
    return neighbours, degree


@cached_njit
def greedy_tour(xy, cand, att):
    """The tour (n,) int32: greedy_fragments' paths walked from the first free end (the lowest city of degree below
    2), each next path from its free end nearest the last city (the candidate list first, else a scan; ties by index)."""
    neighbours, degree = greedy_fragments(xy, cand, att)
    n = xy.shape[0]
    tour, seen = np.empty(n, np.int32), np.zeros(n, np.bool_)
    current, p = np.argmin(degree >= 2), 0  # a forest of paths has a city of degree below 2
    while True:
        previous = -1
        while True:
            tour[p], seen[current] = current, True
            p += 1
            following = -1
            for t in range(degree[current]):
                if neighbours[current, t] != previous and not seen[neighbours[current, t]]:
                    following = neighbours[current, t]
            if following < 0:
                break
            previous, current = current, following
        if p == n:
            return tour
        current = _nearest_free_end(xy, cand, seen, degree, current)


@cached_njit
def _nearest_free_end(xy, cand, seen, degree, c):
    for q in range(cand.shape[1]):
        j = cand[c, q]
        if not seen[j] and degree[j] < 2:
            return j
    best, nearest = np.inf, -1
    for j in range(xy.shape[0]):
        if not seen[j] and degree[j] < 2:
            dx, dy = xy[c, 0] - xy[j, 0], xy[c, 1] - xy[j, 1]
            if dx * dx + dy * dy < best:
                best, nearest = dx * dx + dy * dy, j
    return nearest
