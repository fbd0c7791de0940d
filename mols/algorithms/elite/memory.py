"""What the elite search keeps between rounds: each walk's long-term memory of where each value has been (Ro-TS's
aspiration), and the elite, the best distinct solutions found."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import cached_njit


@cached_njit
def record_steps(seen: np.ndarray, last: np.ndarray, X: np.ndarray, count: int) -> None:
    """Steps count + 1 .. count + m (the rows of X, solutions visited from `last`): seen[v, q] becomes the step at
    which value v left position q; `last` moves to X's last row."""
    for t in range(X.shape[0]):
        for q in range(X.shape[1]):
            if X[t, q] != last[q]:
                seen[last[q], q] = count + t + 1
                last[q] = X[t, q]


@cached_njit
def oldest_swap(seen: np.ndarray, x: np.ndarray, count: int, aspiration: int) -> tuple[int, int]:
    """The swap (r, s), r < s, that puts x[r] at s or x[s] at r where that value has not been for more than
    `aspiration` steps (Ro-TS's long-term aspiration), the one whose older placement is the oldest (the lowest r,
    then s, among equals); (-1, -1) where there is none."""
    best, r_best, s_best = aspiration, -1, -1
    n = x.shape[0]
    for r in range(n):
        for s in range(r + 1, n):
            age = count - min(seen[x[r], s], seen[x[s], r])
            if age > best:
                best, r_best, s_best = age, r, s
    return r_best, s_best


@cached_njit(parallel=True)
def oldest_swaps(seen: np.ndarray, X: np.ndarray, walks: np.ndarray, aspiration: int) -> np.ndarray:
    """oldest_swap of each walk b in `walks` (its table seen[b], at X[b], the tables relative to step 0), on the
    CPU's cores: (len(walks), 2)."""
    out = np.empty((walks.shape[0], 2), dtype=np.int64)
    for k in prange(walks.shape[0]):
        r, s = oldest_swap(seen[walks[k]], X[walks[k]], 0, aspiration)
        out[k, 0], out[k, 1] = r, s
    return out


class WalkMemory:
    """One walk's long-term memory: seen[v, q], the step at which value v last left position q (its start where it
    never did), its steps counted and its last solution, told by each batch of steps (watch)."""

    def __init__(self, x: np.ndarray):
        self.restart(x, 0)

    def restart(self, x: np.ndarray, count: int) -> None:
        """From x after `count` steps: no value has left any position since."""
        self.count, self.last = count, x.copy()
        self.seen = np.full((x.shape[0], x.shape[0]), count, dtype=np.int64)

    def watch(self, X: np.ndarray) -> None:
        """A batch of steps taken: X (m, n), the solutions visited."""
        record_steps(self.seen, self.last, X, self.count)
        self.count += X.shape[0]

    def forced(self, aspiration: int) -> tuple[int, int] | None:
        """The swap Ro-TS's long-term aspiration forces from the last solution (oldest_swap), or None."""
        r, s = oldest_swap(self.seen, self.last, self.count, aspiration)
        return None if r < 0 else (r, s)


class Elite:
    """The `size` best distinct solutions found (by score, the first found among equals), best first."""

    def __init__(self, size: int):
        self.size = size
        self.scores: list[float] = []
        self.members: list[np.ndarray] = []

    def offer(self, score: float, x: np.ndarray) -> None:
        """x joins where it is not a member and beats the worst member (or the elite is not full)."""
        if len(self.scores) >= self.size and score >= self.scores[-1]:  # most offers, after the first rounds
            return
        scores = np.asarray(self.scores)
        low, at = int(np.searchsorted(scores, score, side="left")), int(np.searchsorted(scores, score, side="right"))
        if any(np.array_equal(x, member) for member in self.members[low:at]):  # a member has x's score
            return
        if at >= self.size:
            return
        self.scores.insert(at, score)
        self.members.insert(at, x.copy())
        del self.scores[self.size:], self.members[self.size:]

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """A member drawn uniformly."""
        return self.members[int(rng.integers(len(self.members)))]
