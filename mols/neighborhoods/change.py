"""The change of one variable to another of its k values, on integer vectors: (k - 1) n neighbors, the other values
counted cyclically from the current one so that a move's inverse needs no old value (docs/internals.md).
change.cuh is the CUDA twin (NBH_K = k), with the same ids."""

from __future__ import annotations

from functools import cache

from mols.errors import MolsError
from mols.jit import cached_njit
from mols.neighborhoods.base import HERE, Neighborhood


@cached_njit
def change_decode(idx, k):
    """The move (position, r) with this id, for k values."""
    return idx // (k - 1), idx % (k - 1)


@cached_njit
def new_value(a, r, k):
    """The value that move rank r gives a position holding a."""
    return (a + 1 + r) % k


@cache
def value_changes(k: int) -> Neighborhood:
    """The change neighborhood on vectors of values 0..k-1 (one object per k, so Numba compiles once)."""
    if k < 2:
        raise MolsError(f"the change neighborhood needs at least 2 values per variable, got {k}")
    m = k - 1  # moves per position

    @cached_njit
    def size(n):
        return m * n

    @cached_njit
    def decode(idx, n):
        return change_decode(idx, k)

    @cached_njit
    def encode(i, r, n):
        return i * m + r if 0 <= i < n and 0 <= r < m else -1

    @cached_njit
    def apply_into(x, idx, n, key, out):
        i, r = change_decode(idx, k)
        out[:] = x
        out[i] = new_value(x[i], r, k)

    @cached_njit
    def inverse_of(idx, n):
        """The move that undoes move idx from the solution it leads to: the opposite shift."""
        i, r = change_decode(idx, k)
        return i * m + m - 1 - r

    return Neighborhood("change", "integer", 2, size, decode, apply_into, inverse_of, HERE / "change.cuh",
                        encode=encode, cuda_defines={"NBH_ARITY": 2, "NBH_K": k})
