"""Where a search's wall time goes: evaluation (the kernels with their transfers, device-side selection and walk
steps included), archiving, and the rest. Evaluator calls synchronise their stream, so GPU time lands in its part."""

from __future__ import annotations

import time

TIMED = ("evaluation", "archiving")
PARTS = (*TIMED, "ls process")


class Profiler:
    def __init__(self):
        self.seconds = dict.fromkeys(TIMED, 0.0)
        self._start = time.perf_counter()
        self.wall = 0.0

    def resume(self, elapsed: float, seconds: dict[str, float]) -> None:
        """Go on from a checkpoint: `elapsed` seconds of search so far, `seconds` of them in each timed part."""
        self._start = time.perf_counter() - elapsed
        self.seconds.update(seconds)

    def section(self, name: str) -> Section:
        """`with profiler.section(name):` adds the block's wall time to that part."""
        return Section(self.seconds, name)

    def elapsed(self) -> float:
        """Seconds since the profiler started."""
        return time.perf_counter() - self._start

    def stop(self) -> None:
        self.wall = time.perf_counter() - self._start

    def split(self) -> dict[str, dict[str, float]]:
        """{part: {"seconds": s, "percent": p}} for evaluation, archiving and ls process."""
        seconds = {**self.seconds, "ls process": max(self.wall - sum(self.seconds.values()), 0.0)}
        total = sum(seconds.values()) or 1.0
        return {part: {"seconds": s, "percent": 100.0 * s / total} for part, s in seconds.items()}


class Section:
    """A timed block (a plain class: a generator-based context manager costs microseconds a step)."""

    __slots__ = ("name", "seconds", "start")

    def __init__(self, seconds: dict[str, float], name: str):
        self.seconds, self.name = seconds, name

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc) -> None:
        self.seconds[self.name] += time.perf_counter() - self.start
