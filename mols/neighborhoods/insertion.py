"""Insertion moves: take the job at position i out and put it back so that it lands at position j; (n-1)^2 distinct
neighbors, their ids grouped by the first position a move changes (docs/internals.md)."""

from __future__ import annotations

import math

from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, first_of_pair, position_moves


@cached_njit
def size(n):
    return (n - 1) * (n - 1)


@cached_njit
def _group_start(s, n):
    return s * (2 * n - 2 - s)


@cached_njit
def decode(idx, n):
    # s = floor((n-1) - sqrt((n-1)^2 - idx)) solves group_start(s) <= idx; float error is fixed below.
    s = int((n - 1) - math.sqrt((n - 1) * (n - 1) - idx))
    s = min(max(s, 0), n - 2)
    while s > 0 and _group_start(s, n) > idx:
        s -= 1
    while s < n - 2 and _group_start(s + 1, n) <= idx:
        s += 1
    r = idx - _group_start(s, n)
    n_forward = n - 1 - s
    if r < n_forward:
        return s, s + 1 + r
    return s + 2 + (r - n_forward), s


@cached_njit
def encode(i, j, n):
    if i == j or i < 0 or j < 0 or i >= n or j >= n:
        return -1
    if j == i - 1:  # backward adjacent: the same neighbor as the forward move (j, i)
        i, j = j, i
    if i < j:
        return _group_start(i, n) + (j - i - 1)
    return _group_start(j, n) + (n - 1 - j) + (i - j - 2)


@cached_njit
def source(i, j, k):
    if k == j:
        return i
    if i < j and i <= k < j:
        return k + 1
    if j < i and j < k <= i:
        return k - 1
    return k


INSERTION = position_moves("insertion", size, decode, encode, first_of_pair, source, HERE / "insertion.cuh")
