"""What every benchmark shares: timed runs, and their median and range (Spread) as every timing table gives them."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mols.errors import MolsError

BENCH_OUT = Path("bench-out")  # benchmarks write here unless told otherwise: never into the committed reports/

# The flowshop paper's sizes (jobs x machines) and the bundled instance of each.
FSP_SIZES = {
    "20x10": "020_10_01", "20x20": "020_20_01", "50x10": "050_10_01", "50x20": "050_20_01",
    "100x10": "100_10_01", "100x20": "100_20_01", "200x10": "200_10_01", "200x20": "200_20_01",
}


MIN_CPU_ITERATIONS = 3


def cpu_budget(iterations: int, n_neighbors: int, cpu_moves: int) -> int:
    """Iterations a CPU benchmark run makes: `iterations`, or fewer where they would pass `cpu_moves` neighbors
    (its time is then extrapolated), at least MIN_CPU_ITERATIONS."""
    return max(MIN_CPU_ITERATIONS, min(iterations, cpu_moves // n_neighbors))


@dataclass(frozen=True)
class Spread:
    """The median and the range (low, high) of repeated measurements: what every timed cell of a table states, as
    text "12.3 (11.9–12.8)" and as the CSV columns KEY, KEY_min and KEY_max. NaN everywhere: nothing measured."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread:
        values = [float(v) for v in values]
        if not values:
            return cls(math.nan, math.nan, math.nan)
        return cls(statistics.median(values), min(values), max(values))

    @classmethod
    def read(cls, row: Mapping, key: str) -> Spread:
        """The spread that columns(key) put in a row (a record of the table's DataFrame or CSV)."""
        return cls(float(row[key]), float(row[f"{key}_min"]), float(row[f"{key}_max"]))

    def columns(self, key: str) -> dict[str, float]:
        return {key: self.median, f"{key}_min": self.low, f"{key}_max": self.high}

    def __mul__(self, factor: float) -> Spread:
        """Scaled by a positive factor (seconds to ms, per iteration to per 10,000 iterations)."""
        return Spread(self.median * factor, self.low * factor, self.high * factor)

    __rmul__ = __mul__

    def __add__(self, other: Spread) -> Spread:
        """Two parts timed apart, summed: the medians' sum, between the lows' and the highs'."""
        return Spread(self.median + other.median, self.low + other.low, self.high + other.high)

    def over(self, other: Spread) -> Spread:
        """self / other (a speed-up: the slower time over the faster): the medians' ratio, between the extreme
        ratios of the two ranges (the lowest over the highest, the highest over the lowest)."""
        return Spread(self.median / other.median, self.low / other.high, self.high / other.low)

    def per(self, amount: float) -> Spread:
        """amount / self (a rate, e.g. neighbors per second from seconds): the range turned round."""
        return Spread(amount / self.median, amount / self.high, amount / self.low)

    def text(self, fmt: str = ".3g", unit: str = "") -> str:
        """"median (low–high)" each formatted by fmt, then unit; "" where nothing was measured."""
        if math.isnan(self.median):
            return ""
        return f"{self.median:{fmt}} ({self.low:{fmt}}–{self.high:{fmt}}){unit}"


def time_spread(fn: Callable[[int], object], repeats: int, warmup: int = 2) -> Spread:
    """Wall times of fn(r) over `repeats` calls, after `warmup` untimed calls."""
    for r in range(warmup):
        fn(r)
    times = []
    for r in range(repeats):
        start = time.perf_counter()
        fn(r)
        times.append(time.perf_counter() - start)
    return Spread.of(times)


def median_seconds(fn: Callable[[int], object], repeats: int, warmup: int = 2) -> float:
    """time_spread's median (scripts/speed_compare.py times a tree before this change with it too)."""
    return time_spread(fn, repeats, warmup).median


def choose(text: str, choices, option: str) -> list[str]:
    """The comma-separated names in text ("all": every choice), or MolsError naming the option."""
    chosen = list(choices) if text == "all" else [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in choices]
    if unknown or not chosen:
        raise MolsError(f"{option}: unknown {', '.join(unknown) or 'empty choice'}; choose from "
                        f"{', '.join(choices)} or all")
    return chosen


QUEUE_BLOCKS = 5  # blocks of queue_seconds: its spread is over them


def queue_seconds(queue, enqueue, trials: int) -> Spread:
    """Device seconds per call of what enqueue() puts on the queue (a GPU evaluator): CUDA events around each of
    QUEUE_BLOCKS blocks of trials / QUEUE_BLOCKS calls (at least one), after one warm-up call."""
    import cupy

    enqueue()
    queue.synchronize()
    calls = max(1, trials // QUEUE_BLOCKS)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(QUEUE_BLOCKS):
        queue.record(start)
        for _ in range(calls):
            enqueue()
        queue.record(end)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / 1e3 / calls)
    return Spread.of(times)


def graph_seconds(gpu, enqueue: Callable[[], None], repeats: int, per: int = 1) -> Spread:
    """Device time of what enqueue() puts on the GPU evaluator's queue, divided by `per`, over `repeats` replays of
    a graph of it between CUDA events (host launch overhead stays out), after one warm-up replay."""
    import cupy

    graph = gpu.capture(enqueue)
    gpu.replay(graph)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(max(1, repeats)):
        gpu.record(start)
        gpu.replay(graph)
        gpu.record(end)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / 1e3 / per)
    return Spread.of(times)


def write_tables(folder: Path, tables: dict[str, list[dict]], markdown: tuple[str, str]) -> Path:
    """Each non-empty table of rows as folder/NAME.csv, then markdown = (NAME.md, text); the Markdown file's path.
    MolsError naming --output where the folder cannot be written."""
    import pandas as pd

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, rows in tables.items():
            if len(rows):
                pd.DataFrame(rows).to_csv(folder / name, index=False)
        md = folder / markdown[0]
        md.write_text(markdown[1])
    except OSError as err:
        raise MolsError(f"--output {folder}: {err.strerror}") from None
    return md


def write_report_files(df, folder: Path, stem: str, render: Callable[[object, dict], str]) -> tuple[Path, Path]:
    """folder/STEM.md (render(df, environment())) and folder/STEM.csv (every column); MolsError naming --output
    where the folder cannot be written."""
    from mols.environment import environment

    md = write_tables(folder, {f"{stem}.csv": df}, (f"{stem}.md", render(df, environment())))
    return md, folder / f"{stem}.csv"


def parse_counts(text: str, option: str, least: int = 1) -> list[int]:
    try:
        counts = [int(tok) for tok in text.replace(",", " ").split()]
    except ValueError:
        raise MolsError(f"{option}: expected whole numbers separated by commas, got {text!r}") from None
    if not counts or min(counts) < least:
        raise MolsError(f"{option}: expected whole numbers of at least {least}, got {text!r}")
    return counts
