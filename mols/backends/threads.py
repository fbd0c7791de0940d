"""How many cores a CPU evaluation uses: all of them, or one, whichever the last calls found faster, checked again
now and then because the load can change during a run; also OpenMP's spin count (docs/internals.md)."""

from __future__ import annotations

import statistics
import time
from contextlib import contextmanager

import numba

PROBE = 3  # calls per check of a setting
PATIENCE, MAX_PATIENCE = 16, 512  # time on the chosen setting between two checks, in units of the other's time
CUTOFF = 4  # a checked call this many times slower than the chosen setting's ends the check


class ThreadChoice:
    """Chooses between `most` threads and 1 for each call; `fixed` (a user's --threads) disables it."""

    def __init__(self, most: int, fixed: int | None = None):
        self.most = most
        self.fixed = fixed if fixed is not None or most > 1 else 1
        self.settings = (most, 1)
        self.times: dict[int, list[float]] = {t: [] for t in self.settings}  # the last PROBE timed calls
        self.seen: dict[int, int] = dict.fromkeys(self.settings, 0)  # calls made with each setting
        self.chosen = most
        self.probing: int | None = None  # the setting being checked, PROBE calls in a row
        self.left = 0  # calls left in the check
        self.spent = 0.0  # seconds on the chosen setting since the last check
        self.patience = PATIENCE

    def next(self) -> int:
        """The number of threads for the next call."""
        if self.fixed is not None:
            return self.fixed
        for t in self.settings:  # each setting is measured PROBE times (after one uncounted call) first
            if self.seen[t] <= PROBE:
                return t
        if self.probing is None and self.spent >= self.patience * self._estimate(self._other()):
            self.probing, self.left = self._other(), PROBE
        return self.chosen if self.probing is None else self.probing

    def record(self, threads: int, seconds: float) -> None:
        """A call with `threads` threads took `seconds`. The choice changes only after a check (or after
        the first measurements of both settings), when both settings' times are fresh."""
        if self.fixed is not None:
            return
        self.seen[threads] += 1
        if self.seen[threads] > 1:
            self.times[threads] = (self.times[threads] + [seconds])[-PROBE:]
        if self.probing == threads:
            self.left -= 1
            much_slower = seconds > CUTOFF * self._estimate(self.chosen) and self.times[self.chosen]
            if self.left == 0 or much_slower:  # one call far slower settles it: no need for PROBE of them
                self.probing = None
                self._decide()
        elif threads == self.chosen:
            self.spent += seconds
        if threads == self.settings[-1] and self.seen[threads] == PROBE + 1:  # the first measurements are done
            self._decide()

    def _decide(self) -> None:
        best = min(self.settings, key=self._estimate)
        self.patience = min(2 * self.patience, MAX_PATIENCE) if best == self.chosen else PATIENCE
        self.chosen, self.spent = best, 0.0

    def _estimate(self, threads: int) -> float:
        return statistics.median(self.times[threads]) if self.times[threads] else 0.0

    def _other(self) -> int:
        return 1 if self.chosen == self.most else self.most


class Cores:
    """`with cores:` runs a call on the number of threads the choice gives, and records its time.

    Numba's thread count is set only when it changes (each set costs about a microsecond, as much as
    a tenth of a small call), and it is left as the last call set it."""

    __slots__ = ("choice", "start", "threads")

    def __init__(self, choice: ThreadChoice):
        self.choice = choice

    def __enter__(self) -> int:
        self.threads = self.choice.next()
        if self.threads != _NUMBA_THREADS[0]:
            numba.set_num_threads(self.threads)
            _NUMBA_THREADS[0] = self.threads
        self.start = time.perf_counter()
        return self.threads

    def __exit__(self, kind, *exc) -> None:
        if kind is None:  # an interrupted call measures nothing
            self.choice.record(self.threads, time.perf_counter() - self.start)


_NUMBA_THREADS = [None]  # what Cores last set, for every evaluator of the process


@contextmanager
def numba_threads(threads: int | None):
    """Numba's parallel regions on `threads` cores inside the block (None: all)."""
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)
