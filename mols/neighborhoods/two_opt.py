"""2-opt moves: reverse the segment of positions i..j, for i < j; n(n-1)/2 neighbors with the swap neighborhood's
ids, each its own inverse. On CUDA the ids decode through swap.cuh, whose nbh_segments describe swaps, not
reversals, so a problem whose kernel walks segments (the flowshop) does not list 2-opt."""

from __future__ import annotations

from mols.jit import cached_njit
from mols.neighborhoods.base import first_of_pair, position_moves
from mols.neighborhoods.swap import SWAP_CUDA, decode, encode, size


@cached_njit
def source(i, j, k):
    lo, hi = min(i, j), max(i, j)
    if lo <= k <= hi:
        return lo + hi - k
    return k


TWO_OPT = position_moves("2opt", size, decode, encode, first_of_pair, source, SWAP_CUDA, cuda_segments=False)
