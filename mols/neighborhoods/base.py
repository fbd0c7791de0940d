"""A neighborhood: a size plus a pure mapping between integer ids and moves, on host, Numba and CUDA; a sampled one
also depends on a draw key (seed, counter). The Numba functions and the CUDA header it needs: docs/internals.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from numba import prange

from mols.errors import MolsError
from mols.jit import cached_njit

HERE = Path(__file__).parent
NO_KEYS = np.zeros((1, 2), dtype=np.uint64)  # the key of a neighborhood that draws nothing


@dataclass(frozen=True, eq=False)
class Neighborhood:
    name: str
    encoding: str  # the solution kind it moves in (Encoding.name)
    arity: int  # indices in a move
    size: Callable
    decode: Callable
    apply_into: Callable
    inverse_of: Callable
    cuda_header: str | Path  # the CUDA twin: its text, or the path of a .cuh file
    encode: Callable | None = None
    sampled: bool = False  # a neighbor depends on the draw key as well as on its move id
    parts: int = 1  # solution values per unit of n (2 for a pair of permutations)
    cuda_defines: dict = field(default_factory=dict)  # compile-time constants of the header
    first_changed: Callable | None = None  # position moves only
    source: Callable | None = None  # position moves only
    cuda_segments: bool = False
    forbids_itself: bool = False  # tabu search forbids the move and its inverse (a 3-cycle taken thrice is undone)

    def n_neighbors(self, n: int) -> int:
        size = int(self.size(n))
        if size < 1:
            raise MolsError(f"the {self.name} neighborhood has no move for a problem of size {n}")
        return size

    def move(self, idx: int, n: int) -> tuple[int, ...]:
        """The move with this id; raises MolsError for an id out of range."""
        if not 0 <= idx < self.n_neighbors(n):
            raise MolsError(f"neighbor id {idx} out of range [0, {self.size(n)}) for n={n}")
        return tuple(int(v) for v in self.decode(idx, n))

    def moves(self, ids: np.ndarray, n: int) -> np.ndarray:
        """The moves with these (valid) ids, as rows of a new array (len(ids), arity)."""
        return _decoded(self.decode, self.arity)(np.asarray(ids, dtype=np.int64), n)

    def index(self, *move_and_n: int) -> int:
        """The id of move (i, j, ...) for size n (the last argument); MolsError if it is no move here."""
        *move, n = move_and_n
        ok = self.encode is not None and all(0 <= v < n for v in move)
        idx = int(self.encode(*move, n)) if ok else -1
        if idx < 0:
            raise MolsError(f"{tuple(move)} is not a {self.name} move for n={n}")
        return idx

    def inverse(self, idx: int, n: int) -> int:
        """The id of the move tabu search forbids after move idx: the move that undoes it (idx itself
        where that is the same move)."""
        self.move(idx, n)  # checks the id
        return int(self.inverse_of(idx, n))

    def apply(self, x: np.ndarray, idx: int, key: np.ndarray | None = None) -> np.ndarray:
        """The neighbor with this id, as a new array."""
        self.move(idx, self.problem_size(x))  # checks the id
        return self.apply_many(x, np.array([idx]), key)[0]

    def apply_many(self, x: np.ndarray, ids: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        """The neighbors with these (valid) ids, drawn with `key` where the neighborhood samples, as rows
        of a new array (len(ids), size)."""
        x = np.asarray(x)
        keys = NO_KEYS if key is None else np.asarray(key, dtype=np.uint64).reshape(1, 2)
        return _moved(self.apply_into)(x, np.asarray(ids, dtype=np.int64), keys, self.problem_size(x), False)

    def path(self, x: np.ndarray, ids: np.ndarray, keys: np.ndarray | None = None) -> np.ndarray:
        """The solutions a walk visits when it takes these (valid) moves in turn from x (keys (m, 2): each
        step's draw, where the neighborhood samples): row t is the solution after move t."""
        x = np.asarray(x)
        keys = NO_KEYS if keys is None else np.asarray(keys, dtype=np.uint64).reshape(-1, 2)
        return _moved(self.apply_into)(x, np.asarray(ids, dtype=np.int64), keys, self.problem_size(x), True)

    def paths(self, starts: np.ndarray, ids: np.ndarray, taken: np.ndarray, keys: np.ndarray | None = None
              ) -> np.ndarray:
        """Many walks' paths at once (walks side by side, algorithms/tabu/gpu_walk.py): row t of walk b (out[b, t]) is
        the solution after its moves ids[b, :t + 1] from starts[b], for t < taken[b] (the rest is left unset);
        keys (L, m, 2): each step's draw, where the neighborhood samples. Each walk gives `path`'s rows."""
        starts = np.asarray(starts)
        keys = NO_KEYS[None] if keys is None else np.asarray(keys, dtype=np.uint64)
        return _lane_paths(self.apply_into)(starts, np.asarray(ids, dtype=np.int64), np.asarray(taken, dtype=np.int64),
                                            keys, self.problem_size(starts[0]))

    def problem_size(self, x: np.ndarray) -> int:
        return len(x) // self.parts

    def cuda_source(self) -> str:
        """The CUDA header, with its #define lines."""
        text = self.cuda_header.read_text() if isinstance(self.cuda_header, Path) else self.cuda_header
        return "".join(f"#define {k} {v}\n" for k, v in self.cuda_defines.items()) + text


def position_moves(name: str, size: Callable, decode: Callable, encode: Callable, first_changed: Callable,
                   source: Callable, cuda_header: str | Path, cuda_segments: bool = True) -> Neighborhood:
    """A neighborhood of moves on permutations given by two positions (i, j), whose neighbor puts at
    position k the element at source(i, j, k) of x; its inverse is the move (j, i), or itself."""
    @cached_njit
    def apply_into(x, idx, n, key, out):
        i, j = decode(idx, n)
        for k in range(n):
            out[k] = x[source(i, j, k)]

    @cached_njit
    def inverse_of(idx, n):
        i, j = decode(idx, n)
        back = encode(j, i, n)
        return back if back >= 0 else idx

    return Neighborhood(name, "permutation", 2, size, decode, apply_into, inverse_of, cuda_header, encode=encode,
                        first_changed=first_changed, source=source, cuda_segments=cuda_segments)


@cached_njit
def first_of_pair(i, j):
    """The first position a move on positions i and j changes, for moves that keep the rest."""
    return min(i, j)


@cache
def _decoded(decode, arity: int):
    @cached_njit
    def decoded(ids, n):
        out = np.empty((ids.shape[0], arity), dtype=np.int64)
        for r in range(ids.shape[0]):
            move = decode(ids[r], n)
            for q in range(arity):
                out[r, q] = move[q]
        return out

    return decoded


@cache
def _moved(apply_into):
    @cached_njit
    def moved(x, ids, keys, n, chained):
        """Row r: move ids[r] applied to x, or (chained) to row r - 1, with key keys[r] (or keys[0])."""
        out = np.empty((ids.shape[0], x.shape[0]), dtype=x.dtype)
        for r in range(ids.shape[0]):
            base = out[r - 1] if chained and r > 0 else x
            apply_into(base, ids[r], n, keys[r if keys.shape[0] > 1 else 0], out[r])
        return out

    return moved


@cache
def _lane_paths(apply_into):
    @cached_njit(parallel=True)
    def lane_paths(starts, ids, taken, keys, n):
        """out[b, t]: move ids[b, t] applied to out[b, t - 1] (to starts[b] at t = 0), with key keys[b, t]
        (or keys[0, 0]), for t < taken[b]. The walks in parallel."""
        out = np.empty((ids.shape[0], ids.shape[1], starts.shape[1]), dtype=starts.dtype)
        for b in prange(ids.shape[0]):
            for t in range(taken[b]):
                base = out[b, t - 1] if t > 0 else starts[b]
                key = keys[b, t] if keys.shape[0] > 1 or keys.shape[1] > 1 else keys[0, 0]
                apply_into(base, ids[b, t], n, key, out[b, t])
        return out

    return lane_paths
