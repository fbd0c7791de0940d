"""The archives of walks that share each launch (algorithms/tabu/together.py's walk_together), side by side in padded
arrays, so that one Numba call offers every walk's steps to its archive, with archive/host.py's rule
(docs/internals.md)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.archive.host import Archive, vector_dominates
from mols.jit import cached_njit


@cached_njit(parallel=True)
def _offer(F, X, origin, count, Fc, Xc, offered):
    """Lane b takes the candidates Fc[b, t], Xc[b, t] where offered[b, t], in order of t; each member keeps the
    row it came from in its archive (origin; -1 for a new one). The lanes in parallel."""
    for b in prange(F.shape[0]):
        c = count[b]
        for t in range(Fc.shape[1]):
            if not offered[b, t]:
                continue
            beaten = False
            for r in range(c):
                if vector_dominates(F[b, r], Fc[b, t], False):
                    beaten = True
                    break
            if beaten:
                continue
            w = 0
            for r in range(c):  # not weakly dominated by any member: "weakly dominates" a member means dominates
                if not vector_dominates(Fc[b, t], F[b, r], False):
                    if w != r:
                        F[b, w] = F[b, r]
                        X[b, w] = X[b, r]
                        origin[b, w] = origin[b, r]
                    w += 1
            F[b, w] = Fc[b, t]
            X[b, w] = Xc[b, t]
            origin[b, w] = -1
            c = w + 1
        count[b] = c


class LaneArchives:
    """One lane per archive of `archives` (each at most one lane: flush hands a lane back to its own)."""

    def __init__(self, archives: list[Archive]):
        if len({id(a) for a in archives}) < len(archives):
            raise ValueError("two lanes share an archive")
        self.archives = archives
        first = archives[0]
        self.count = np.array([len(a) for a in archives], dtype=np.int64)
        cap = int(self.count.max()) + 16
        self.F = np.empty((len(archives), cap, first.F.shape[1]), dtype=first.F.dtype)
        self.X = np.empty((len(archives), cap, first.n_var), dtype=first.solution_dtype)
        self.origin = np.empty((len(archives), cap), dtype=np.int64)
        for b in range(len(archives)):
            self._load(b)

    def offer(self, F: np.ndarray, X: np.ndarray, offered: np.ndarray) -> None:
        """Lane b is offered the candidates F[b, t] (L, m, k) with solutions X[b, t] (L, m, n) where offered[b, t]."""
        self._reserve(int(self.count.max()) + F.shape[1])
        _offer(self.F, self.X, self.origin, self.count, F, X, offered)

    def flush(self, b: int) -> None:
        """Lane b's members into its archive: the members it kept, then the new ones, in the lane's order."""
        archive, c = self.archives[b], self.count[b]
        origin = self.origin[b, :c]
        kept = origin >= 0
        visited = np.zeros(c, dtype=bool)
        visited[kept] = archive.visited[origin[kept]]
        archive.hold(self.F[b, :c], self.X[b, :c], visited)
        origin[:] = np.arange(c)  # the archive's order is now the lane's

    def flush_all(self) -> None:
        for b in range(len(self.archives)):
            self.flush(b)

    def _load(self, b: int) -> None:
        archive = self.archives[b]
        self.F[b, :len(archive)], self.X[b, :len(archive)] = archive.F, archive.X
        self.origin[b, :len(archive)] = np.arange(len(archive))

    def _reserve(self, rows: int) -> None:
        """Room for `rows` members in every lane (the arrays double when short)."""
        cap = self.F.shape[1]
        if rows <= cap:
            return
        grown = max(rows, 2 * cap)
        self.F = _grown(self.F, grown)
        self.X = _grown(self.X, grown)
        self.origin = _grown(self.origin, grown)


def _grown(a: np.ndarray, rows: int) -> np.ndarray:
    out = np.empty((a.shape[0], rows, *a.shape[2:]), dtype=a.dtype)
    out[:, :a.shape[1]] = a
    return out
