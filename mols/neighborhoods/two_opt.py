"""2-opt moves: reverse the segment of positions i..j, for i < j; n(n-1)/2 neighbors.

Ids are those of the swap neighborhood (the same pairs i < j, the same triangular order). On a
tour, (0, n-1) reverses the whole permutation and (0, n-2), (1, n-1) all but one element: they
give other permutations of the same cycle. A reversal undoes itself, so a move is its own inverse.
On CUDA the ids decode through swap.cuh (after pairs.cuh); its nbh_segments describe swaps, not reversals, so a
problem whose kernel walks segments (the flowshop) does not list 2-opt among its neighborhoods.
"""

from __future__ import annotations

from numba import njit

from mols.neighborhoods.base import first_of_pair, position_moves
from mols.neighborhoods.swap import SWAP_CUDA, decode, encode, size


@njit(cache=True)
def source(i, j, k):
    lo, hi = min(i, j), max(i, j)
    if lo <= k <= hi:
        return lo + hi - k
    return k


TWO_OPT = position_moves("2opt", size, decode, encode, first_of_pair, source, SWAP_CUDA, cuda_segments=False)
