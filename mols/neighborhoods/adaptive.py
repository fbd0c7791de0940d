"""Adaptive steps: sampled neighbors of a real vector whose radius and moved coordinates a search adapts through the
draw key (an evolution strategy's step size: algorithms/es/); adaptive.cuh is the CUDA twin, bit for bit."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from mols.errors import MolsError
from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood
from mols.neighborhoods.draws import DRAWS_CUH, uniform

COUNT = 10_000  # neighbors per evaluation, as the crowns
OCTAVES = 8  # neighbor t steps up to the radius / 2^(t % OCTAVES): one evaluation tries 8 scales below the radius
LEVELS = 256  # radius and subset levels: 2^(-level / 4), 8 bits each in the key
RADIUS_SHIFT, SUBSET_SHIFT = 56, 48  # where the key's second word holds the levels; its counter keeps 48 bits
COUNTER_BITS = 48
_RADIUS, _SUBSET, _BYTE = np.uint64(RADIUS_SHIFT), np.uint64(SUBSET_SHIFT), np.uint64(255)  # uint64 for Numba
QUARTERS = np.array([1.0, 2.0 ** -0.25, 2.0 ** -0.5, 2.0 ** -0.75])  # 2^(-level / 4) = QUARTERS[level % 4] 2^-(level / 4)
CUDA_HEADER = DRAWS_CUH.read_text() + (HERE / "adaptive.cuh").read_text()


def scaled_key(key: np.ndarray, radius_level: int, subset_level: int) -> np.ndarray:
    """The draw key (seed, counter) carrying the levels the evaluation draws with: the radius (the box's width
    times 2^(-radius_level / 4)) and each coordinate's chance to move beside the one that always does
    (2^(-subset_level / 4)), in the top 16 bits of its second word."""
    if not (0 <= radius_level < LEVELS and 0 <= subset_level < LEVELS and int(key[1]) < 1 << COUNTER_BITS):
        raise MolsError(f"levels {radius_level}, {subset_level} (0..{LEVELS - 1}) or draw counter {int(key[1])} "
                        f"(below 2^{COUNTER_BITS}) out of range")
    out = np.array(key, dtype=np.uint64)
    out[1] |= np.uint64((radius_level << RADIUS_SHIFT) | (subset_level << SUBSET_SHIFT))
    return out


@cached_njit
def level_scale(level):
    """2^(-level / 4), exactly the CUDA twin's double."""
    return math.ldexp(QUARTERS[level & 3], -(level >> 2))


@cached_njit
def coordinate(x, t, q, n, key, low, high):
    """Coordinate q of neighbor t of x: neighbor t moves one coordinate drawn uniformly, and each other with the
    key's subset chance, by a uniform step in [-r, r], r = the key's radius / 2^(t % OCTAVES), clipped to the box."""
    moved = q == min(int(uniform(key, t, 0) * n), n - 1)
    if not moved and uniform(key, t, 1 + 2 * q) >= level_scale(np.int64((key[1] >> _SUBSET) & _BYTE)):
        return x[q]
    r = math.ldexp((high - low) * level_scale(np.int64(key[1] >> _RADIUS)), -(t % OCTAVES))
    return min(max(x[q] + (2.0 * uniform(key, t, 2 + 2 * q) - 1.0) * r, low), high)


@cached_njit
def decode(idx, n):
    return (idx,)


@cached_njit
def same_draw(idx, n):
    """The tabu attribute of a move: its id (a draw is its own inverse)."""
    return idx


@cache
def adaptive(count: int = COUNT, low: float = -1.0, high: float = 1.0) -> Neighborhood:
    """The adaptive neighborhood with `count` neighbors in the box [low, high]^n; ADAPTIVE is [-1, 1]'s."""
    if count < 1:
        raise MolsError(f"the adaptive neighborhood needs at least 1 neighbor, got {count}")
    if not low < high:
        raise MolsError(f"the adaptive neighborhood's box needs low < high, got [{low}, {high}]")

    @cached_njit
    def size(n):
        return count

    @cached_njit
    def apply_into(x, idx, n, key, out):
        for q in range(n):
            out[q] = coordinate(x, idx, q, n, key, low, high)

    defines = {"ADAPTIVE_LOW": repr(float(low)), "ADAPTIVE_HIGH": repr(float(high)), "ADAPTIVE_OCTAVES": OCTAVES,
               **{f"ADAPTIVE_QUARTER{i}": repr(float(v)) for i, v in enumerate(QUARTERS)}}  # repr: the same doubles
    return Neighborhood("adaptive", "real", 1, size, decode, apply_into, same_draw, CUDA_HEADER, sampled=True,
                        cuda_defines=defines)


ADAPTIVE = adaptive()
