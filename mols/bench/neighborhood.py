"""`mols bench neighborhood`: neighbors evaluated per second, CPU on 1 and all cores against the GPU."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from mols.backends import BackendSpec, prepare
from mols.backends.cuda import gpu_available
from mols.bench.common import FSP_SIZES, graph_seconds, median_seconds, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import Neighborhood
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


def cell_updates(nbh: Neighborhood, n: int, m: int) -> int:
    """Completion times the incremental evaluation computes for the whole neighborhood."""
    return m * sum(n - nbh.first_changed(*nbh.decode(t, n)) for t in range(nbh.n_neighbors(n)))


def bench_row(size: str, nbh: Neighborhood, repeats: int, gpu_repeats: int, seed: int = 0) -> dict:
    problem = Flowshop(read_flowshop(resolve_instance(FSP_SIZES[size])))
    rng = np.random.default_rng(seed)
    solutions = [problem.random_solution(rng) for _ in range(8)]  # rotate: no timing on one input
    row = {"size": size, "neighborhood": nbh.name, "neighbors": nbh.n_neighbors(problem.n)}
    for label, threads in (("cpu_1core", 1), ("cpu_all_cores", numba.config.NUMBA_NUM_THREADS)):
        cpu = prepare(problem, nbh, BackendSpec("cpu", threads=threads))
        row[f"{label}_s"] = median_seconds(lambda r, cpu=cpu: cpu.evaluate(solutions[r % 8]), repeats)
    if gpu_available():
        gpu = prepare(problem, nbh, "gpu")
        row["gpu_kernel_s"] = kernel_seconds(gpu, solutions[0], gpu_repeats)
        row["gpu_total_s"] = median_seconds(lambda r: gpu.evaluate(solutions[r % 8]), gpu_repeats, warmup=10)
    row["cell_updates"] = cell_updates(nbh, problem.n, problem.m)
    return row


def kernel_seconds(gpu, x: np.ndarray, repeats: int, launches: int = 20, key: np.ndarray | None = None) -> float:
    """Median time of the kernel alone, on state already on the device (x's, with the draw key of a sampled
    neighborhood): a graph of `launches` back-to-back launches (bench.common.graph_seconds)."""
    gpu.evaluate_device(x, key)
    return graph_seconds(gpu, lambda: [gpu.enqueue_launch() for _ in range(launches)], repeats // launches, launches)


def run(sizes: Iterable[str], neighborhoods: Iterable[Neighborhood], repeats: int = 5,
        gpu_repeats: int = 200, on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    rows = []
    for size in sizes:
        for nbh in neighborhoods:
            rows.append(bench_row(size, nbh, repeats, gpu_repeats))
            on_row(rows[-1])
    return with_rates(pd.DataFrame(rows))


def with_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Neighbors per second for every timed column, and the CPU's parallel speed-up."""
    for col in [c for c in df.columns if c.endswith("_s")]:
        df[col.removesuffix("_s") + "_nbr_per_s"] = df["neighbors"] / df[col]
    df["cpu_parallel_speedup"] = df["cpu_1core_s"] / df["cpu_all_cores_s"]
    if "gpu_kernel_s" in df:
        df["gpu_kernel_cells_per_s"] = df["cell_updates"] / df["gpu_kernel_s"]
    return df


def write_report(df: pd.DataFrame, folder: Path) -> tuple[Path, Path]:
    """FOLDER/neighborhood.md (environment and table) and FOLDER/neighborhood.csv (all columns)."""
    return write_report_files(df, folder, "neighborhood", render_markdown)


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    gpu = "gpu_kernel_s" in df
    rows = []
    for r in df.to_dict("records"):
        row = {"size": r["size"], "neighborhood": r["neighborhood"], "neighbors": f"{r['neighbors']:,}",
               "CPU 1 core": _rate(r["cpu_1core_nbr_per_s"]), "CPU all cores": _rate(r["cpu_all_cores_nbr_per_s"]),
               "CPU speed-up": f"{r['cpu_parallel_speedup']:.1f}x"}
        if gpu:
            row |= {"GPU kernel": _rate(r["gpu_kernel_nbr_per_s"]), "GPU with transfers": _rate(r["gpu_total_nbr_per_s"]),
                    "GPU with transfers, median": f"{r['gpu_total_s'] * 1e6:.1f} µs",
                    "GPU / CPU all cores": f"{r['cpu_all_cores_s'] / r['gpu_total_s']:.0f}x"}
        rows.append(row)
    head = markdown_list(env)
    return (
        "# Whole-neighborhood evaluation rate (flowshop, 3 objectives)\n\n"
        "Made by `mols bench neighborhood`. Neighbors evaluated per second; each value is the median of "
        "several runs on rotating random permutations, all columns measured side by side in one run. "
        "CPU = our Numba backend (incremental evaluation); GPU kernel = the kernel alone, timed with CUDA "
        "events over graph replays of back-to-back launches on state already on the device; "
        "GPU with transfers = one `evaluate()` call from the host: "
        "state in, kernel, F (neighbors x 3) back into pinned host memory.\n\n"
        f"{head}\n\n{markdown_table(rows)}\n"
    )


def _rate(per_second: float) -> str:
    return f"{per_second / 1e6:,.2f} M/s"
