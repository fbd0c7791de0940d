"""What every benchmark shares: medians of timed runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
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


def choose(text: str, choices, option: str) -> list[str]:
    """The comma-separated names in text ("all": every choice), or MolsError naming the option."""
    chosen = list(choices) if text == "all" else [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in choices]
    if unknown or not chosen:
        raise MolsError(f"{option}: unknown {', '.join(unknown) or 'empty choice'}; choose from "
                        f"{', '.join(choices)} or all")
    return chosen


def queue_seconds(queue, enqueue, trials: int) -> float:
    """Device seconds per call of what enqueue() puts on the queue (a GPU evaluator): CUDA events around `trials`
    calls, after one warm-up call."""
    import cupy

    enqueue()
    queue.synchronize()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    queue.record(start)
    for _ in range(trials):
        enqueue()
    queue.record(end)
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end) / 1e3 / trials


def graph_seconds(gpu, enqueue: Callable[[], None], repeats: int, per: int = 1) -> float:
    """Median device time of what enqueue() puts on the GPU evaluator's queue, divided by `per`: CUDA
    events around replays of a graph of it (host launch overhead stays out), after one warm-up replay."""
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
    return statistics.median(times)


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
