"""Random numbers for sampled neighborhoods, from a counter: the same (key, id, q) gives the same number on the host,
in Numba kernels and in CUDA kernels (draws.cuh), through SplitMix64's finaliser, so a run repeats exactly on
every backend."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.jit import cached_njit

DRAWS_CUH = Path(__file__).with_name("draws.cuh")
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2^-53


@cached_njit(inline="always")
def mix(z):
    """SplitMix64's finaliser, on uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@cached_njit(inline="always")
def uniform(key, idx, q):
    """A double in [0, 1) from the draw key (2,) uint64, neighbor id idx and draw number q."""
    z = mix(key[0] + _GOLDEN)
    z = mix(z ^ key[1])
    z = mix(z ^ np.uint64(idx))
    z = mix(z ^ np.uint64(q))
    return np.float64(z >> _S11) * _UNIT
