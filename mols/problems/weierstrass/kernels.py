"""The Weierstrass function's kernel set: the Numba kernel (cpu.py) and weierstrass.cu, several threads per
neighbor, which reduces sin's huge arguments with an exact table of 1 / (2 pi) and applies a move on the device."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from mols.neighborhoods import Neighborhood
from mols.problems.kernels import KernelSet, Layout, every
from mols.problems.weierstrass import cpu

if TYPE_CHECKING:
    from mols.problems.weierstrass.model import Weierstrass

WARP = 32
INCREMENTAL = ("adaptive",)  # neighborhoods that move a few coordinates: evaluated from x's per-coordinate values
# The reduction table of weierstrass.cu: c_s = frac(2^s / (2 pi)) in 128-bit fixed point, s = SMIN .. SMAX (it
# meets s = -44 .. 48 in float64, -15 .. 77 in float32: |2^i y| >= 2^8, |y| <= 1).
REDUCTION_SMIN, REDUCTION_SMAX, REDUCTION_BITS = -64, 127, 128


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


class WeierstrassKernels(KernelSet):
    """Several threads per neighbor on the GPU (weierstrass.cu): 10,000 neighbors would leave most of the
    device idle with one thread each, and each thread would compute n x 100 sines in turn. Tabu walks run
    on the device (apply_kernels). No selection kernel: a fused one (evaluation and select_partial in one
    pass) was no faster than the two kernels (its blocks of 256 threads need more registers, so fewer of
    them fit on a multiprocessor)."""

    problem: Weierstrass
    cuda_file = Path(__file__).with_name("weierstrass.cu")
    cuda_kernel = "weierstrass_crowns"
    apply_kernels = every(("crowns", "adaptive"), "weierstrass_apply")
    # one block (1 thread asked: the launch's block), after each upload and applied move: x's values for the kernel
    prepare_kernels = MappingProxyType({name: ("weierstrass_prepare", 1) for name in INCREMENTAL})

    def data(self) -> tuple[np.ndarray, ...]:
        return (self.problem.weights, reduction_table())

    def state_layout(self) -> Layout:
        """x, then what the incremental kernels derive from it: W(x_k) (in float64) and f(x) (1,)."""
        n, double = self.problem.n, np.dtype(np.float64)
        return [((n,), double), ((n,), double), ((1,), double)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        state[0][:] = x  # the values: the incremental kernel (CPU) or the prepare kernel (GPU) makes them from x

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """The adaptive neighborhood's kernel evaluates only the moved coordinates unless `incremental` is off."""
        make = cpu.incremental_kernel if incremental and nbh.name in INCREMENTAL else cpu.neighborhood_kernel
        return make(nbh.apply_into, self.problem.precision)

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        """weierstrass_adaptive evaluates only the moved coordinates (weierstrass_crowns takes the adaptive header
        too and evaluates them in full: the tests' reference)."""
        return "weierstrass_adaptive" if nbh.name in INCREMENTAL else self.cuda_kernel

    @property
    def threads_per_move(self) -> int:
        """Lanes per neighbor (weierstrass.cu's LANES), unless a launch set them: 16 up to dimension 16, a warp
        beyond. A neighbor's lanes draw its n Gaussians at once, one each, and the rest of the warp waits: with
        16 lanes a warp draws two neighbors in that time (tabu steps slightly faster than with 32 in float32, the
        same in float64)."""
        return self.tuned_move_threads or (16 if self.problem.n <= 16 else WARP)

    def cuda_defines(self) -> dict[str, int | str]:
        problem = self.problem
        return {"D": problem.n, "TERMS": len(problem.weights), "F32": int(problem.precision == "float32"),
                "LANES": self.threads_per_move, "REDUCTION_SMIN": REDUCTION_SMIN,
                "REDUCTION_ROWS": REDUCTION_SMAX - REDUCTION_SMIN + 1}
