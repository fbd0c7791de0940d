"""A neighborhood: a size plus a pure mapping between integer ids and moves, on host, Numba and CUDA."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from mols.errors import MolsError

HERE = Path(__file__).parent


@njit(cache=True)
def first_of_pair(i, j):
    """The first position a move on positions i and j changes, for moves that keep the rest."""
    return min(i, j)


@dataclass(frozen=True)
class Neighborhood:
    """Moves on permutations of length n, each move a pair (i, j) of positions.

    The Numba functions are the mapping itself, callable from Python and from jitted kernels:
    `size(n)`, `decode(id, n) -> (i, j)`, `encode(i, j, n) -> id` (-1 if (i, j) is no move),
    `first_changed(i, j)` (the first position whose job differs from the current permutation)
    and `source(i, j, k)` (the position in the current permutation of the job that the neighbor
    puts at position k). `cuda_header` defines them for CUDA: `nbh_decode`, `nbh_first_changed`,
    and `nbh_segments` (positions first_changed..n-1 as runs of the current permutation), which
    describe the moves where `cuda_segments` is true (not for 2-opt, which borrows swap's header
    for the ids alone).
    """

    name: str
    size: Callable
    decode: Callable
    encode: Callable
    first_changed: Callable
    source: Callable
    cuda_header: str
    cuda_segments: bool = True

    def n_neighbors(self, n: int) -> int:
        if n < 2:
            raise MolsError(f"the {self.name} neighborhood needs at least 2 elements, got n={n}")
        return int(self.size(n))

    def move(self, idx: int, n: int) -> tuple[int, int]:
        """The move (i, j) with this id; raises MolsError for an id out of range."""
        if not 0 <= idx < self.n_neighbors(n):
            raise MolsError(f"neighbor id {idx} out of range [0, {self.size(n)}) for n={n}")
        i, j = self.decode(idx, n)
        return int(i), int(j)

    def index(self, i: int, j: int, n: int) -> int:
        """The id of move (i, j); raises MolsError if (i, j) is no move of this neighborhood."""
        idx = int(self.encode(i, j, n)) if 0 <= i < n and 0 <= j < n else -1
        if idx < 0:
            raise MolsError(f"({i}, {j}) is not a {self.name} move for n={n}")
        return idx

    def moves(self, ids: np.ndarray, n: int) -> np.ndarray:
        """The moves with these (valid) ids, as rows (i, j) of a new array (len(ids), 2)."""
        return _decoded(self.decode)(np.asarray(ids, dtype=np.int64), n)

    def apply(self, perm: np.ndarray, idx: int) -> np.ndarray:
        """The neighbor with this id, as a new array."""
        self.move(idx, len(perm))  # checks the id
        return self.apply_many(perm, np.array([idx]))[0]

    def apply_many(self, perm: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """The neighbors with these (valid) ids, as rows of a new array (len(ids), n)."""
        return _moved(self.decode, self.source)(np.asarray(perm), np.asarray(ids, dtype=np.int64), False)

    def walk(self, perm: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """The solutions a walk visits when it takes these (valid) moves in turn from perm: row t is
        the solution after move t, as rows of a new array (len(ids), n)."""
        return _moved(self.decode, self.source)(np.asarray(perm), np.asarray(ids, dtype=np.int64), True)

    def inverse(self, idx: int, n: int) -> int:
        """The id of the move that undoes move idx: (j, i) for (i, j), or idx itself where (j, i)
        is the same neighbor or no move. Tabu search forbids it for a while."""
        i, j = self.move(idx, n)
        back = int(self.encode(j, i, n))
        return back if back >= 0 else idx

    def cuda_source(self) -> str:
        return (HERE / self.cuda_header).read_text()


@cache
def _decoded(decode):
    @njit
    def decoded(ids, n):
        out = np.empty((ids.shape[0], 2), dtype=np.int64)
        for r in range(ids.shape[0]):
            out[r, 0], out[r, 1] = decode(ids[r], n)
        return out

    return decoded


@cache
def _moved(decode, source):
    @njit
    def moved(perm, ids, chained):
        """Row r: move ids[r] applied to perm, or (chained) to row r - 1."""
        n = perm.shape[0]
        out = np.empty((ids.shape[0], n), dtype=perm.dtype)
        for r in range(ids.shape[0]):
            base = out[r - 1] if chained and r > 0 else perm
            i, j = decode(ids[r], n)
            for k in range(n):
                out[r, k] = base[source(i, j, k)]
        return out

    return moved
