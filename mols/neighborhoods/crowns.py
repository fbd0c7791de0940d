"""Crowns: sampled neighbors of a real vector in concentric shells around it (Luong, Melab and Talbi,
IEEE TC 2013, section 4.5), for continuous problems on the box [-1, 1]^n.

`count` crowns of equal width split the ball of radius R = 1/n (n the dimension) around x: crown t + 1
holds the points at a distance in [h_t, h_t+1] from x, h_t = R t / count. Neighbor t (t = 0 .. count - 1)
is one random point of crown t + 1: a direction uniform on the sphere (n Gaussian draws by Box-Muller,
normalised) times a radius drawn uniformly in [h_t, h_t+1], added to x, then clipped to the box [-1, 1]
coordinate by coordinate (a clipped neighbor lies nearer to x than its crown). The draws, from the
evaluation's key (draws.py): uniform(key, t, 2q) and uniform(key, t, 2q + 1) for Gaussian q, then
uniform(key, t, 2n) for the radius. Tabu search forbids the crown just taken (a move is its own inverse).

crowns.cuh is the CUDA twin, and it computes the same double, bit for bit: every step is an IEEE
round-to-nearest operation (+, *, /, sqrt, written __dadd_rn etc. there so that no multiply-add is
fused) except log and cos in Box-Muller, which may differ in their last bit between CUDA and the host's
libm. Each Gaussian draw is therefore rounded to float32: the rounding hides such a difference unless
the double lies within a bit of a float32 rounding boundary (about one draw in 10^9). It matters
because the Weierstrass function sums sin(2^i x) up to i = 100: a change of x in its last bit changes f
by up to 1e-3.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
from numba import njit

from mols.errors import MolsError
from mols.neighborhoods.base import HERE, Neighborhood
from mols.neighborhoods.draws import DRAWS_CUH, uniform

LOW, HIGH = -1.0, 1.0  # the box neighbors are clipped to
TWO_PI = 2.0 * math.pi
PAPER_COUNT = 10_000  # neighbors in the paper's Weierstrass experiments (section 6.3)
CUDA_HEADER = DRAWS_CUH.read_text() + (HERE / "crowns.cuh").read_text()


@njit(cache=True)
def gaussian(key, t, q):
    """Gaussian draw q of neighbor t (Box-Muller), rounded to float32 (the module docstring says why)."""
    u, v = uniform(key, t, 2 * q), uniform(key, t, 2 * q + 1)
    g = math.sqrt(-2.0 * math.log(1.0 - u)) * math.cos(TWO_PI * v)
    return np.float64(np.float32(g))


@njit(cache=True)
def radius(key, t, n, count):
    """The distance of neighbor t from x: uniform in [h_t, h_t+1], h_t = t / (n count)."""
    return (t + uniform(key, t, 2 * n)) / (n * count)


@njit(cache=True)
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


@njit(cache=True)
def decode(idx, n):
    return (idx,)


@njit(cache=True)
def same_crown(idx, n):
    """The tabu attribute of a move: its crown."""
    return idx


@cache
def crowns(count: int) -> Neighborhood:
    """The crowns neighborhood with `count` neighbors (one per crown); CROWNS has the paper's 10,000."""
    if count < 1:
        raise MolsError(f"the crowns neighborhood needs at least 1 crown, got {count}")

    @njit
    def size(n):
        return count

    @njit
    def apply_into(x, idx, n, key, out):
        crown_point(x, idx, n, count, key, out)

    defines = {"CROWNS_COUNT": count, "CROWNS_LOW": repr(LOW), "CROWNS_HIGH": repr(HIGH),
               "CROWNS_TWO_PI": repr(TWO_PI)}  # repr: the same doubles
    return Neighborhood("crowns", "real", 1, size, decode, apply_into, same_crown, CUDA_HEADER, sampled=True,
                        cuda_defines=defines)


CROWNS = crowns(PAPER_COUNT)
