"""Swaps on a pair of permutations x = (p, q) (the Q3AP's, Luong, Loukil, Melab & Talbi 2010, eqs. 5-6): basic, one
swap in p or in q, and advanced, one in each at once (docs/internals.md); pair_swaps.cuh is the CUDA twin."""

from __future__ import annotations

from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood
from mols.neighborhoods.swap import PAIRS_CUDA
from mols.neighborhoods.swap import decode as pair
from mols.neighborhoods.swap import encode as pair_id
from mols.neighborhoods.swap import size as pairs


@cached_njit
def basic_size(n):
    return 2 * pairs(n)


@cached_njit
def basic_decode(idx, n):
    m = pairs(n)
    part = idx // m
    i, j = pair(idx - part * m, n)
    return part, i, j


@cached_njit
def basic_encode(part, i, j, n):
    at = pair_id(i, j, n)
    return -1 if at < 0 or part > 1 else part * pairs(n) + at


@cached_njit
def basic_swaps(idx, n):
    part, i, j = basic_decode(idx, n)
    return (i, j, -1, -1) if part == 0 else (-1, -1, i, j)


@cached_njit
def advanced_size(n):
    return pairs(n) * pairs(n)


@cached_njit
def advanced_decode(idx, n):
    m = pairs(n)
    a = idx // m
    k, l = pair(a, n)
    r, s = pair(idx - a * m, n)
    return k, l, r, s


@cached_njit
def advanced_encode(k, l, r, s, n):
    a, b = pair_id(k, l, n), pair_id(r, s, n)
    return -1 if a < 0 or b < 0 else a * pairs(n) + b


@cached_njit
def advanced_swaps(idx, n):
    return advanced_decode(idx, n)


@cached_njit
def itself(idx, n):
    return idx


def swapping(swaps):
    """apply_into for a neighborhood whose move `swaps` gives as (k, l, r, s)."""
    @cached_njit
    def apply_into(x, idx, n, key, out):
        k, l, r, s = swaps(idx, n)
        out[:] = x
        if k >= 0:
            out[k], out[l] = x[l], x[k]
        if r >= 0:
            out[n + r], out[n + s] = x[n + s], x[n + r]

    return apply_into


def pair_swaps(name: str, arity: int, size, decode, encode, swaps, advanced: int) -> Neighborhood:
    return Neighborhood(name, "permutations", arity, size, decode, swapping(swaps), itself,
                        PAIRS_CUDA + (HERE / "pair_swaps.cuh").read_text(), encode=encode, parts=2,
                        cuda_defines={"NBH_ADVANCED": advanced})


BASIC = pair_swaps("basic", 3, basic_size, basic_decode, basic_encode, basic_swaps, 0)
ADVANCED = pair_swaps("advanced", 4, advanced_size, advanced_decode, advanced_encode, advanced_swaps, 1)
SWAPS = {BASIC.name: basic_swaps, ADVANCED.name: advanced_swaps}  # id -> (k, l, r, s), for the Q3AP's kernels
