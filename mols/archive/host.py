"""An unbounded archive of mutually non-dominated solutions, on the host; all objectives are minimised. Of equal
vectors it keeps the first (so PLS cannot cycle through them), and `add` equals offering the candidates one by one."""

from __future__ import annotations

import numpy as np

from mols.jit import cached_njit


@cached_njit
def vector_dominates(a, b, strict):
    """a dominates b (strict), or a weakly dominates b (not strict)."""
    less = not strict
    for o in range(a.shape[0]):
        if a[o] > b[o]:
            return False
        if a[o] < b[o]:
            less = True
    return less


@cached_njit
def _nondominated(F):
    """keep[t]: no row dominates row t, and no earlier row equals it. One pass; `kept` holds the
    rows that survive so far, and a newcomer drops the kept rows it dominates."""
    n = F.shape[0]
    keep = np.zeros(n, dtype=np.bool_)
    kept = np.empty(n, dtype=np.int64)
    n_kept = 0
    for t in range(n):
        beaten = False
        for r in range(n_kept):
            if vector_dominates(F[kept[r]], F[t], False):
                beaten = True
                break
        if beaten:
            continue
        w = 0
        for r in range(n_kept):  # F[t] is not weakly dominated, so "weakly dominates" means dominates
            if vector_dominates(F[t], F[kept[r]], False):
                keep[kept[r]] = False
            else:
                kept[w] = kept[r]
                w += 1
        kept[w] = t
        n_kept = w + 1
        keep[t] = True
    return keep


@cached_njit
def _dominating_rows(F, f):
    out = np.zeros(F.shape[0], dtype=np.bool_)
    for t in range(F.shape[0]):
        out[t] = vector_dominates(F[t], f, True)
    return out


@cached_njit
def _beaten_by(P, Q, strict):
    """out[p]: some row of Q dominates P[p] (strict) or weakly dominates it (not strict)."""
    out = np.zeros(P.shape[0], dtype=np.bool_)
    for p in range(P.shape[0]):
        for q in range(Q.shape[0]):
            if vector_dominates(Q[q], P[p], strict):
                out[p] = True
                break
    return out


def nondominated(F: np.ndarray) -> np.ndarray:
    """Boolean mask of the rows of F (N, k) that no other row dominates, keeping the first of equal rows."""
    return _nondominated(np.ascontiguousarray(F))


def dominates(F: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Boolean mask of the rows of F (N, k) that dominate the vector f (k,)."""
    dtype = np.result_type(F, f)
    return _dominating_rows(np.ascontiguousarray(F, dtype=dtype), np.asarray(f, dtype=dtype))


def weakly_dominated(F, point) -> bool:
    """Whether a row of F (NumPy, or CuPy with a CuPy point) is at most `point` in every objective."""
    return bool(len(F)) and bool((F <= point).all(axis=1).any())


class Archive:
    """Members' objective vectors F (A, k), their solutions X (A, n) and visited flags (A,).

    Solutions live in a pool that grows by doubling, and members point into it, so an update
    copies only the new solutions, however large the archive (copying all of X on every update
    was most of PLS's archiving time on 200x20).
    """

    def __init__(self, n_obj: int, n_var: int, dtype=np.int64, solution_dtype=np.int32):
        """n_var values of solution_dtype per solution (Encoding.size and .dtype), objectives of dtype."""
        self.n_var, self.solution_dtype = n_var, np.dtype(solution_dtype)
        self.F = np.empty((0, n_obj), dtype=dtype)
        self.visited = np.empty(0, dtype=bool)
        self._pool = np.empty((0, n_var), dtype=solution_dtype)
        self._slot = np.empty(0, dtype=np.int64)  # member i's solution is _pool[_slot[i]]
        self._free = np.empty(0, dtype=np.int64)  # unused rows of the pool, taken from the end

    def __len__(self) -> int:
        return self.F.shape[0]

    def clear(self) -> None:
        """No members; the pool keeps its rows for the next ones."""
        self._free = np.concatenate([self._free, self._slot])
        self.F, self.visited, self._slot = self.F[:0], self.visited[:0], self._slot[:0]

    @property
    def X(self) -> np.ndarray:
        """All members' solutions (A, n), as a new array."""
        return self._pool[self._slot]

    def members(self) -> tuple[np.ndarray, np.ndarray]:
        """(F, X): every member's vector and solution."""
        return self.F, self.X

    def solution(self, i: int) -> np.ndarray:
        """Member i's solution, as a new array."""
        return self._pool[self._slot[i]].copy()

    def add(self, F: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Offer candidates F (N, k) with solutions X (N, n); returns which were accepted (N,).
        Members that an accepted candidate dominates leave the archive."""
        F = np.ascontiguousarray(F, dtype=self.F.dtype)
        if len(F) == 1 and not len(self):  # a search's first solution: nothing to compare
            self.hold(F, X, np.zeros(1, dtype=bool))
            return np.ones(1, dtype=bool)
        accepted, removed = self.verdict(F)
        if accepted.any():
            self.replace(~removed, F[accepted], np.asarray(X)[accepted])
        return accepted

    def verdict(self, F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What `add` would do, leaving the archive as it is: (accepted (N,), removed (A,)), the
        candidates it accepts and the members they dominate. The GPU filter's host twin."""
        F = np.ascontiguousarray(F, dtype=self.F.dtype)
        accepted = nondominated(F)
        survivors = np.flatnonzero(accepted)
        accepted[survivors[_beaten_by(F[survivors], self.F, strict=False)]] = False
        new = np.flatnonzero(accepted)
        removed = _beaten_by(self.F, F[new], strict=True) if new.size else np.zeros(len(self), dtype=bool)
        return accepted, removed

    def hold(self, F: np.ndarray, X: np.ndarray, visited: np.ndarray) -> None:
        """Exactly these members (mutually non-dominated), in this order: F (A, k), X (A, n), visited (A,); copies
        (a checkpoint's state may be restored again)."""
        self.F = np.array(F, dtype=self.F.dtype)
        self._pool = np.array(X, dtype=self._pool.dtype)
        self._slot = np.arange(len(self.F))
        self._free = self._free[:0]
        self.visited = np.array(visited, dtype=bool)

    def replace(self, stay: np.ndarray, F_new: np.ndarray, X_new: np.ndarray) -> None:
        """Keep the members where stay (A,) is true, then append the new ones, unvisited."""
        self._free = np.concatenate([self._free, self._slot[~stay]])
        slots = self._take(len(F_new))
        self._pool[slots] = X_new
        self.F = np.concatenate([self.F[stay], np.asarray(F_new, dtype=self.F.dtype)])
        self._slot = np.concatenate([self._slot[stay], slots])
        self.visited = np.concatenate([self.visited[stay], np.zeros(len(F_new), dtype=bool)])

    def _take(self, count: int) -> np.ndarray:
        """`count` free rows of the pool; the pool doubles when too few are free."""
        missing = count - len(self._free)
        if missing > 0:
            size = len(self._pool)
            grown = max(2 * size, size + missing, 16)
            self._pool = np.concatenate([self._pool, np.empty((grown - size, self._pool.shape[1]), self._pool.dtype)])
            self._free = np.concatenate([np.arange(grown - 1, size - 1, -1), self._free])
        rest = len(self._free) - count
        slots, self._free = self._free[rest:], self._free[:rest]
        return slots

    def unvisited_ids(self) -> np.ndarray:
        """Indices of the members not yet visited, in archive order."""
        return np.flatnonzero(~self.visited)
