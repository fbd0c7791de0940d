"""`mols bench neighborhood`: neighbors evaluated per second, CPU on 1 and all cores against the GPU."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from mols.backends import BackendSpec, prepare
from mols.backends.cuda import gpu_available
from mols.bench.common import FSP_SIZES, Spread, graph_seconds, time_spread, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import Neighborhood
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


def cell_updates(nbh: Neighborhood, n: int, m: int) -> int:
    """Completion times the incremental evaluation computes for the whole neighborhood."""
    return m * sum(n - nbh.first_changed(*nbh.decode(t, n)) for t in range(nbh.n_neighbors(n)))


def bench_row(size: str, nbh: Neighborhood, repeats: int, gpu_repeats: int, seed: int = 0) -> dict:
    """Each column's seconds per evaluation and neighbors per second (LABEL_s, LABEL_nbr_per_s: median, min and max),
    the CPU's parallel speed-up and the GPU's over all cores (Spread.over)."""
    problem = Flowshop(read_flowshop(resolve_instance(FSP_SIZES[size])))
    rng = np.random.default_rng(seed)
    solutions = [problem.random_solution(rng) for _ in range(8)]  # rotate: no timing on one input
    row = {"size": size, "neighborhood": nbh.name, "neighbors": nbh.n_neighbors(problem.n),
           "cell_updates": cell_updates(nbh, problem.n, problem.m)}
    times = {}
    for label, threads in (("cpu_1core", 1), ("cpu_all_cores", numba.config.NUMBA_NUM_THREADS)):
        cpu = prepare(problem, nbh, BackendSpec("cpu", threads=threads))
        times[label] = time_spread(lambda r, cpu=cpu: cpu.evaluate(solutions[r % 8]), repeats)
    if gpu_available():
        gpu = prepare(problem, nbh, "gpu")
        times["gpu_kernel"] = kernel_seconds(gpu, solutions[0], gpu_repeats)
        times["gpu_total"] = time_spread(lambda r: gpu.evaluate(solutions[r % 8]), gpu_repeats, warmup=10)
        row |= times["gpu_kernel"].per(row["cell_updates"]).columns("gpu_kernel_cells_per_s")
        row |= times["cpu_all_cores"].over(times["gpu_total"]).columns("gpu_over_cpu_all_cores")
    for label, seconds in times.items():
        row |= seconds.columns(f"{label}_s") | seconds.per(row["neighbors"]).columns(f"{label}_nbr_per_s")
    return row | times["cpu_1core"].over(times["cpu_all_cores"]).columns("cpu_parallel_speedup")


def kernel_seconds(gpu, x: np.ndarray, repeats: int, launches: int = 20, key: np.ndarray | None = None) -> Spread:
    """Time of the kernel alone, on state already on the device (x's, with the draw key of a sampled
    neighborhood): graphs of `launches` back-to-back launches (bench.common.graph_seconds)."""
    gpu.evaluate_device(x, key)
    return graph_seconds(gpu, lambda: [gpu.enqueue_launch() for _ in range(launches)], repeats // launches, launches)


def run(sizes: Iterable[str], neighborhoods: Iterable[Neighborhood], repeats: int = 5,
        gpu_repeats: int = 200, on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    rows = []
    for size in sizes:
        for nbh in neighborhoods:
            rows.append(bench_row(size, nbh, repeats, gpu_repeats))
            on_row(rows[-1])
    return pd.DataFrame(rows)


def write_report(df: pd.DataFrame, folder: Path) -> tuple[Path, Path]:
    """FOLDER/neighborhood.md (environment and table) and FOLDER/neighborhood.csv (all columns)."""
    return write_report_files(df, folder, "neighborhood", render_markdown)


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    gpu = "gpu_kernel_s" in df
    rows = []
    for r in df.to_dict("records"):
        row = {"size": r["size"], "neighborhood": r["neighborhood"], "neighbors": f"{r['neighbors']:,}",
               "CPU 1 core": _rate(r, "cpu_1core"), "CPU all cores": _rate(r, "cpu_all_cores"),
               "CPU speed-up": Spread.read(r, "cpu_parallel_speedup").text(".1f", "x")}
        if gpu:
            row |= {"GPU kernel": _rate(r, "gpu_kernel"), "GPU with transfers": _rate(r, "gpu_total"),
                    "GPU with transfers, time": (Spread.read(r, "gpu_total_s") * 1e6).text(".1f", " µs"),
                    "GPU / CPU all cores": Spread.read(r, "gpu_over_cpu_all_cores").text(".0f", "x")}
        rows.append(row)
    head = markdown_list(env)
    return (
        "# Whole-neighborhood evaluation rate (flowshop, 3 objectives)\n\n"
        "Made by `mols bench neighborhood`. Neighbors evaluated per second; each value is the median of "
        "several runs on rotating random permutations and in brackets their range (speed-ups: the medians' ratio, "
        "in brackets the ratios of the ranges' ends), all columns measured side by side in one run. "
        "CPU = our Numba backend (incremental evaluation); GPU kernel = the kernel alone, timed with CUDA "
        "events over graph replays of back-to-back launches on state already on the device; "
        "GPU with transfers = one `evaluate()` call from the host: "
        "state in, kernel, F (neighbors x 3) back into pinned host memory.\n\n"
        f"{head}\n\n{markdown_table(rows)}\n"
    )


def _rate(row: dict, label: str) -> str:
    return (Spread.read(row, f"{label}_nbr_per_s") * 1e-6).text(",.2f", " M/s")
