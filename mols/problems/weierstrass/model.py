"""The Weierstrass function on [-1, 1]^n, minimised: the continuous problem of Luong, Melab and Talbi (IEEE TC 2013,
section 6.3), with the crowns neighborhood; the order of its sums: docs/internals.md."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from mols.encodings import RealVector
from mols.neighborhoods import Neighborhood
from mols.problems.base import Layout, Problem
from mols.problems.weierstrass import cpu
from mols.problems.weierstrass.instance import WeierstrassInstance

TERMS, HOLDER = 100, 0.25
WARP = 32
# The reduction table of weierstrass.cu: c_s = frac(2^s / (2 pi)) in 128-bit fixed point, s = SMIN .. SMAX (it
# meets s = -44 .. 48 in float64, -15 .. 77 in float32: |2^i y| >= 2^8, |y| <= 1).
REDUCTION_SMIN, REDUCTION_SMAX, REDUCTION_BITS = -64, 127, 128


def term_weights(precision: str) -> np.ndarray:
    """(TERMS,) the weights 2^(-i h), i = 1..TERMS, in the given precision."""
    return (2.0 ** (-HOLDER * np.arange(1, TERMS + 1))).astype(precision)


def _arctan_inverse(m: int, one: int) -> int:
    """one x arctan(1/m), its series in integers: within (number of terms) units of it."""
    total, power, k, sign = 0, one // m, 1, 1
    while power:
        total += sign * (power // k)
        power //= m * m
        k, sign = k + 2, -sign
    return total


@cache
def inverse_two_pi_bits(p: int) -> int:
    """floor(2^p / (2 pi)), exactly: pi by Machin's formula, 64 bits beyond, and a check that its error
    cannot move the floor."""
    guard = 64
    one = 1 << (p + guard)
    pi = 16 * _arctan_inverse(5, one) - 4 * _arctan_inverse(239, one)  # within 2^12 units of pi x one
    low, high = ((1 << (2 * p + guard)) // (2 * (pi + e)) for e in (1 << 12, -(1 << 12)))
    assert low == high, "inverse_two_pi_bits: too few guard bits"
    return low


@cache
def reduction_table() -> np.ndarray:
    """(SMAX - SMIN + 1, 2) uint64: row s - SMIN holds floor(2^(s + 128) / (2 pi)) mod 2^128, i.e. frac(2^s / (2 pi))
    in 128-bit fixed point, high word then low word. For y = M 2^e (M the integer mantissa),
    2^i y / (2 pi) = M 2^(e + i) / (2 pi), whose fraction is that of M c_(e + i): weierstrass.cu reduces
    sin's huge arguments with it (float32: the high word alone)."""
    p = REDUCTION_BITS + REDUCTION_SMAX + 8
    r = inverse_two_pi_bits(p)
    table = np.empty((REDUCTION_SMAX - REDUCTION_SMIN + 1, 2), dtype=np.uint64)
    for s in range(REDUCTION_SMIN, REDUCTION_SMAX + 1):
        c = (r >> (p - REDUCTION_BITS - s)) % (1 << REDUCTION_BITS)
        table[s - REDUCTION_SMIN] = (c >> 64, c & ((1 << 64) - 1))
    return table


class Weierstrass(Problem):
    """Several lanes per neighbor on the GPU (weierstrass.cu): 10,000 neighbors would leave most of the
    device idle with one thread each, and each thread would compute n x 100 sines in turn. Tabu walks run
    on the device (apply_kernel). No selection kernel: a fused one (evaluation and select_partial in one
    pass) was no faster than the two kernels (its blocks of 256 threads need more registers, so fewer of
    them fit on a multiprocessor)."""

    name = "weierstrass"
    objectives = ("f",)
    dtype = np.dtype(np.float64)
    neighborhoods = ("crowns",)
    cuda_file = Path(__file__).with_name("weierstrass.cu")
    cuda_kernel = "weierstrass_crowns"
    fixed_move_threads = None  # threads per neighbor, a power of two up to 32; None: by the dimension (threads_per_move)

    def __init__(self, instance: WeierstrassInstance):
        self.instance = instance
        self.n = instance.dimension
        self.precision = instance.precision
        self.encoding = RealVector(self.n, -1.0, 1.0)
        self.weights = term_weights(self.precision)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        Y = X.astype(self.precision)
        per_coordinate = np.zeros_like(Y)  # (B, n)
        for i, w in enumerate(self.weights, start=1):
            per_coordinate += w * np.sin(np.ldexp(Y, i))  # 2^i y exactly
        f = np.zeros(len(Y), dtype=self.precision)
        for k in range(Y.shape[1]):  # coordinate by coordinate, as the kernels add them
            f += per_coordinate[:, k]
        return f[:, None]

    def data(self) -> tuple[np.ndarray, ...]:
        return (self.weights, reduction_table())

    def state_layout(self) -> Layout:
        return [((self.n,), np.dtype(np.float64))]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        state[0][:] = x

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        return cpu.neighborhood_kernel(nbh.apply_into, self.precision)

    @property
    def threads_per_move(self) -> int:
        """Lanes per neighbor (weierstrass.cu's LANES): 16 up to dimension 16, a warp beyond. A neighbor's
        lanes draw its n Gaussians at once, one each, and the rest of the warp waits: with 16 lanes a warp
        draws two neighbors in that time (tabu steps slightly faster than with 32 in float32, the same in
        float64)."""
        return self.fixed_move_threads or (16 if self.n <= 16 else WARP)

    def cuda_defines(self) -> dict[str, int | str]:
        return {"D": self.n, "TERMS": TERMS, "F32": int(self.precision == "float32"), "LANES": self.threads_per_move,
                "REDUCTION_SMIN": REDUCTION_SMIN, "REDUCTION_ROWS": REDUCTION_SMAX - REDUCTION_SMIN + 1}

    def apply_kernel(self, nbh: Neighborhood) -> str:
        return "weierstrass_apply"
