"""Where a search's wall time goes: evaluation, archiving, and the rest (the LS process).

Evaluation is the neighborhood kernel with its transfers (and, on the GPU, the device-side
selection fused with it; for tabu search, the walk's steps: selection and move, on the device in
batches where the problem allows); archiving is the non-dominated archive's updates. Every evaluator call
returns only after its device work has finished (it synchronises its stream), so wall-clock
sections charge GPU time to the right part.
"""

from __future__ import annotations

import time

TIMED = ("evaluation", "archiving")
PARTS = (*TIMED, "ls process")


class Profiler:
    def __init__(self):
        self.seconds = dict.fromkeys(TIMED, 0.0)
        self._start = time.perf_counter()
        self.wall = 0.0

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
    """A timed block (a plain class: a generator-based context manager costs about 1 us a step)."""

    __slots__ = ("name", "seconds", "start")

    def __init__(self, seconds: dict[str, float], name: str):
        self.seconds, self.name = seconds, name

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc) -> None:
        self.seconds[self.name] += time.perf_counter() - self.start
