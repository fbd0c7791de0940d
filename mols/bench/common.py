"""What every benchmark shares: medians of timed runs and Markdown tables."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[int], object], repeats: int, warmup: int = 2) -> float:
    """Median wall time of fn(r) over `repeats` calls, after `warmup` untimed calls."""
    for r in range(warmup):
        fn(r)
    times = []
    for r in range(repeats):
        start = time.perf_counter()
        fn(r)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def markdown_table(rows: list[dict[str, str]]) -> str:
    """A GitHub Markdown table of rows that share their keys."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows]
    return "\n".join(lines)
