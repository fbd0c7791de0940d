"""The change of one variable to another of its k values, on integer vectors: (k - 1) n neighbors.

Move id t is the pair (i, r) = (t // (k - 1), t % (k - 1)): position i takes the value
(x[i] + 1 + r) mod k, so the k - 1 ids of a position give its k - 1 other values once each, counted
cyclically from the current one. Luong et al. (2013, section 4.4) count them in the alphabet's order
instead (r if r < x[i], else r + 1): the same neighbors under other ids, but then the move that
undoes (i, r) depends on the value x[i] had before it, which `inverse_of(id, n)` is not given. In
the cyclic order, r shifts x[i] by r + 1 and the shift by k - r - 1, the id (i, k - 2 - r), undoes
it whatever the values: the tabu attribute forbids changing position i back to its old value while
it keeps the new one. Once i changes again, that id moves i elsewhere, so a position can still cycle
through three values or more (a -> b -> c -> a), which a memory of move ids cannot stop in general:
Tabucol's attribute (position, old value) needs a tabu memory keyed by values, not by move ids.
change.cuh is the CUDA twin (NBH_K = k), with the same ids.
"""

from __future__ import annotations

from functools import cache

from numba import njit

from mols.errors import MolsError
from mols.neighborhoods.base import HERE, Neighborhood


@njit(cache=True)
def change_decode(idx, k):
    """The move (position, r) with this id, for k values."""
    return idx // (k - 1), idx % (k - 1)


@njit(cache=True)
def new_value(a, r, k):
    """The value that move rank r gives a position holding a."""
    return (a + 1 + r) % k


@cache
def value_changes(k: int) -> Neighborhood:
    """The change neighborhood on vectors of values 0..k-1 (one object per k, so Numba compiles once)."""
    if k < 2:
        raise MolsError(f"the change neighborhood needs at least 2 values per variable, got {k}")
    m = k - 1  # moves per position

    @njit
    def size(n):
        return m * n

    @njit
    def decode(idx, n):
        return change_decode(idx, k)

    @njit
    def encode(i, r, n):
        return i * m + r if 0 <= i < n and 0 <= r < m else -1

    @njit
    def apply_into(x, idx, n, key, out):
        i, r = change_decode(idx, k)
        out[:] = x
        out[i] = new_value(x[i], r, k)

    @njit
    def inverse_of(idx, n):
        """The move that undoes move idx from the solution it leads to: the opposite shift."""
        i, r = change_decode(idx, k)
        return i * m + m - 1 - r

    return Neighborhood("change", "integer", 2, size, decode, apply_into, inverse_of, HERE / "change.cuh",
                        encode=encode, cuda_defines={"NBH_ARITY": 2, "NBH_K": k})
