"""Crowns: sampled neighbors of a real vector in concentric shells around it (Luong, Melab and Talbi, IEEE TC 2013,
section 4.5), for continuous problems on the box [-1, 1]^n; crowns.cuh is the CUDA twin, bit for bit
(docs/internals.md says how, and why each Gaussian draw is rounded to float32)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from mols.errors import MolsError
from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood
from mols.neighborhoods.draws import DRAWS_CUH, uniform

LOW, HIGH = -1.0, 1.0  # the box neighbors are clipped to
TWO_PI = 2.0 * math.pi
PAPER_COUNT = 10_000  # neighbors in the paper's Weierstrass experiments (section 6.3)
CUDA_HEADER = DRAWS_CUH.read_text() + (HERE / "crowns.cuh").read_text()


@cached_njit
def gaussian(key, t, q):
    """Gaussian draw q of neighbor t (Box-Muller), rounded to float32 (docs/internals.md says why)."""
    u, v = uniform(key, t, 2 * q), uniform(key, t, 2 * q + 1)
    g = math.sqrt(-2.0 * math.log(1.0 - u)) * math.cos(TWO_PI * v)
    return np.float64(np.float32(g))


@cached_njit
def radius(key, t, n, count):
    """The distance of neighbor t from x: uniform in [h_t, h_t+1], h_t = t / (n count)."""
    return (t + uniform(key, t, 2 * n)) / (n * count)


@cached_njit
def crown_point(x, t, n, count, key, out):
    """out = neighbor t of x among `count` crowns (out is not x)."""
    norm2 = 0.0
    for q in range(n):
        out[q] = gaussian(key, t, q)
        norm2 += out[q] * out[q]
    norm, r = math.sqrt(norm2), radius(key, t, n, count)
    for q in range(n):
        unit = out[q] / norm if norm > 0.0 else (1.0 if q == 0 else 0.0)  # all draws 0 (n = 1, odds 2^-53): e_0
        out[q] = min(max(x[q] + r * unit, LOW), HIGH)


@cached_njit
def decode(idx, n):
    return (idx,)


@cached_njit
def same_crown(idx, n):
    """The tabu attribute of a move: its crown."""
    return idx


@cache
def crowns(count: int) -> Neighborhood:
    """The crowns neighborhood with `count` neighbors (one per crown); CROWNS has the paper's 10,000."""
    if count < 1:
        raise MolsError(f"the crowns neighborhood needs at least 1 crown, got {count}")

    @cached_njit
    def size(n):
        return count

    @cached_njit
    def apply_into(x, idx, n, key, out):
        crown_point(x, idx, n, count, key, out)

    defines = {"CROWNS_COUNT": count, "CROWNS_LOW": repr(LOW), "CROWNS_HIGH": repr(HIGH),
               "CROWNS_TWO_PI": repr(TWO_PI)}  # repr: the same doubles
    return Neighborhood("crowns", "real", 1, size, decode, apply_into, same_crown, CUDA_HEADER, sampled=True,
                        cuda_defines=defines)


CROWNS = crowns(PAPER_COUNT)
