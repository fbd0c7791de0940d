"""Hamming-k neighborhoods on bit vectors: flip k distinct bits, C(n, k) neighbors, numbered in the combinatorial
number system and decoded exactly for any size (docs/internals.md); hamming.cuh is the CUDA twin."""

from __future__ import annotations

import math

import numpy as np

from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood


@cached_njit
def binomial(c, q):
    """C(c, q) for q in 1..3 (0 where c < q)."""
    if c < q:
        return 0
    if q == 1:
        return c
    if q == 2:
        return c * (c - 1) // 2
    return c * (c - 1) * (c - 2) // 6


@cached_njit
def largest(rest, q):
    """The largest c with C(c, q) <= rest."""
    if q == 1:
        return rest
    c = int((1.0 + math.sqrt(1.0 + 8.0 * rest)) / 2.0) if q == 2 else int((6.0 * rest) ** (1.0 / 3.0)) + 1
    c = max(c, q - 1)
    while binomial(c, q) > rest:
        c -= 1
    while binomial(c + 1, q) <= rest:
        c += 1
    return c


@cached_njit
def size1(n):
    return n


@cached_njit
def size2(n):
    return binomial(n, 2)


@cached_njit
def size3(n):
    return binomial(n, 3)


@cached_njit
def decode1(idx, n):
    return (np.int64(idx),)


@cached_njit
def decode2(idx, n):
    idx = np.int64(idx)  # a prange index may be unsigned: keep the arithmetic in int64
    j = largest(idx, 2)
    return idx - binomial(j, 2), j


@cached_njit
def decode3(idx, n):
    idx = np.int64(idx)
    l = largest(idx, 3)  # the third bit
    rest = idx - binomial(l, 3)
    j = largest(rest, 2)
    return rest - binomial(j, 2), j, l


@cached_njit
def encode1(i, n):
    return i


@cached_njit
def encode2(i, j, n):
    if i == j:
        return -1
    return binomial(max(i, j), 2) + min(i, j)


@cached_njit
def encode3(i, j, l, n):
    if i == j or j == l or i == l:
        return -1
    a, c = min(i, j, l), max(i, j, l)
    return binomial(c, 3) + binomial(i + j + l - a - c, 2) + a


@cached_njit
def itself(idx, n):
    """The move that undoes a flip: the same flip."""
    return idx


def flips(decode, k: int):
    @cached_njit
    def apply_into(x, idx, n, key, out):
        move = decode(idx, n)
        out[:] = x
        for q in range(k):
            out[move[q]] ^= 1

    return apply_into


# The CUDA twin: the subsets' numbering (subsets.cuh, shared with 3-exchange's triples) and the flips (hamming.cuh).
SUBSETS_CUDA = (HERE / "subsets.cuh").read_text()


def hamming(k: int, size, decode, encode) -> Neighborhood:
    return Neighborhood(f"hamming{k}", "binary", k, size, decode, flips(decode, k), itself,
                        SUBSETS_CUDA + (HERE / "hamming.cuh").read_text(),
                        encode=encode, cuda_defines={"NBH_ARITY": k})


HAMMING1 = hamming(1, size1, decode1, encode1)
HAMMING2 = hamming(2, size2, decode2, encode2)
HAMMING3 = hamming(3, size3, decode3, encode3)
