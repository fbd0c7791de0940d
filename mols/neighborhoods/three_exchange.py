"""3-exchange moves: the values at three positions i < j < k rotated one way or the other (a 3-cycle); 2 C(n, 3)
neighbors, the triples in lexicographic order as the swap's pairs are (Luong, Melab & Talbi, IEEE TC 2013, 4.6.1)."""

from __future__ import annotations

import numpy as np

from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood
from mols.neighborhoods.hamming import SUBSETS_CUDA, binomial, decode3


@cached_njit
def size(n):
    return 2 * binomial(n, 3)


@cached_njit
def rank(i, j, k, n):
    """The lexicographic rank of the triple i < j < k: the triples whose first position is below i, then those of
    first position i whose second is below j, then k's place after j."""
    return binomial(n, 3) - binomial(n - i, 3) + binomial(n - 1 - i, 2) - binomial(n - j, 2) + k - j - 1


@cached_njit
def triple(r, n):
    """The triple i < j < k of lexicographic rank r: mirrored (v -> n - 1 - v), the lexicographic order is the
    colex order backwards, so it is the colex triple of rank C(n, 3) - 1 - r (hamming.decode3: roots, no loop)."""
    a, b, c = decode3(binomial(n, 3) - 1 - r, n)
    return n - 1 - c, n - 1 - b, n - 1 - a


@cached_njit
def decode(idx, n):
    """Move idx as the cycle (i, j, k): the value at position i goes to j, j's to k, k's to i (i the smallest).
    Id 2r rotates the triple of rank r forwards (i -> j -> k), id 2r + 1 backwards (i -> k -> j)."""
    idx = np.int64(idx)  # a prange index may be unsigned: keep the arithmetic in int64
    i, j, k = triple(idx // 2, n)
    if idx % 2 == 0:
        return i, j, k
    return i, k, j


@cached_njit
def encode(a, b, c, n):
    """The id of the cycle a -> b -> c -> a, given from any of its positions; -1 where it is no 3-cycle."""
    if a == b or b == c or a == c or min(a, b, c) < 0 or max(a, b, c) >= n:
        return -1
    if b < a and b < c:
        a, b, c = b, c, a
    elif c < a and c < b:
        a, b, c = c, a, b
    if b < c:
        return 2 * rank(a, b, c, n)
    return 2 * rank(a, c, b, n) + 1


@cached_njit
def inverse_of(idx, n):
    """The other rotation of the same positions undoes a move. The move itself, taken twice more, undoes it too:
    tabu search forbids both (forbids_itself), so that a walk cannot come back by either."""
    return idx ^ 1


@cached_njit
def source(i, j, k, p):
    """The position whose value the neighbor of the cycle (i, j, k) puts at position p."""
    if p == i:
        return k
    if p == j:
        return i
    if p == k:
        return j
    return p


@cached_njit
def first_changed(i, j, k):
    return min(i, j, k)


@cached_njit
def apply_into(x, idx, n, key, out):
    i, j, k = decode(idx, n)
    out[:] = x
    out[j], out[k], out[i] = x[i], x[j], x[k]


@cached_njit
def next_move(i, j, k, n):
    """The cycle of the id after that of the cycle (i, j, k): its other rotation, then the next triple's first
    (so that a kernel can walk consecutive ids without decoding each)."""
    if j < k:
        return i, k, j
    lo, mid, hi = i, k, j
    if hi < n - 1:
        return lo, mid, hi + 1
    if mid < n - 2:
        return lo, mid + 1, mid + 2
    return lo + 1, lo + 2, lo + 3


THREE_EXCHANGE = Neighborhood("3exchange", "permutation", 3, size, decode, apply_into, inverse_of,
                              SUBSETS_CUDA + (HERE / "three_exchange.cuh").read_text(), encode=encode,
                              first_changed=first_changed, source=source, cuda_segments=True, forbids_itself=True)
