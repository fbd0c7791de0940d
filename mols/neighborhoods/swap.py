"""2-exchange (swap) moves: exchange the jobs at positions i < j; n(n-1)/2 neighbors, with the triangular ids of
Luong, Melab & Talbi (IEEE TC 2013), Propositions 1 and 2, inverted through a square root corrected in integers."""

from __future__ import annotations

import math

import numpy as np

from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, first_of_pair, position_moves


@cached_njit
def size(n):
    return n * (n - 1) // 2


@cached_njit
def _row_start(i, n):
    return i * n - i * (i + 1) // 2


@cached_njit
def decode(idx, n):
    m = n * (n - 1) // 2
    i = n - 2 - int((math.sqrt(8.0 * (m - idx - 1) + 1.0) - 1.0) / 2.0)
    i = min(max(i, 0), n - 2)
    while i > 0 and _row_start(i, n) > idx:
        i -= 1
    while i < n - 2 and _row_start(i + 1, n) <= idx:
        i += 1
    return i, idx - i * (n - 1) + i * (i + 1) // 2 + 1


@cached_njit
def encode(i, j, n):
    if i == j or i < 0 or j < 0 or i >= n or j >= n:
        return -1
    if j < i:
        i, j = j, i
    return i * (n - 1) + (j - 1) - i * (i + 1) // 2


@cached_njit
def source(i, j, k):
    if k == i:
        return j
    if k == j:
        return i
    return k


# The CUDA twin: the pair numbering (pairs.cuh, shared with 2-opt and the Q3AP's swaps) and the moves (swap.cuh).
PAIRS_CUDA = (HERE / "pairs.cuh").read_text()
SWAP_CUDA = PAIRS_CUDA + (HERE / "swap.cuh").read_text()
SWAP = position_moves("swap", size, decode, encode, first_of_pair, source, SWAP_CUDA)


@cached_njit
def swap_pairs(n: int) -> np.ndarray:
    """(2, n(n - 1) / 2): the positions (i, j), i < j, of each swap id."""
    m = n * (n - 1) // 2
    pairs = np.empty((2, m), dtype=np.int64)
    for t in range(m):
        pairs[0, t], pairs[1, t] = decode(t, n)
    return pairs
