"""`mols bench weierstrass`: Table 5 of Luong, Melab and Talbi (IEEE TC 2013) on this machine: tabu search on the
Weierstrass function, dimensions 1..10, in float32 and float64, on 1 core, all cores and the GPU (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import Spread, write_report_files
from mols.bench.neighborhood import kernel_seconds as neighborhood_kernel_seconds
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.crowns import PAPER_COUNT, crowns
from mols.problems.weierstrass.instance import PRECISIONS, TABLE_DIMENSIONS, WeierstrassInstance
from mols.problems.weierstrass.model import Weierstrass

BACKENDS = {"cpu1": BackendSpec("cpu", threads=1), "cpu": BackendSpec("cpu"), "gpu": BackendSpec("gpu")}
PAPER_ITERATIONS = 10_000
# Table 5, Xeon E5620 against Tesla M2050, single precision: seconds for 10,000 iterations, by dimension.
PAPER_M2050_S = {1: (1876, 11), 2: (3871, 18), 3: (6001, 27), 4: (7990, 36), 5: (10031, 43), 6: (11254, 47),
                 7: (13201, 55), 8: (15752, 66), 9: (18212, 75), 10: (20166, 83)}
GAP_POINTS = 3  # random points whose neighbors measure float32 against float64
KERNEL_LAUNCHES = 20  # back-to-back launches per timed graph


def default_backends() -> list[str]:
    return [name for name, spec in BACKENDS.items() if spec.device != "gpu" or gpu_available()]


def run(dimensions: Iterable[int] = TABLE_DIMENSIONS, precisions: Iterable[str] = PRECISIONS,
        backends: Iterable[str] | None = None, iterations: int = PAPER_ITERATIONS, cpu_iterations: int = 3,
        repeats: int = 3, neighbors: int = PAPER_COUNT, kernel_repeats: int = 20,
        on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    """One row per dimension, arithmetic and backend (docs/internals.md says what is measured)."""
    nbh, backends = crowns(neighbors), list(backends or default_backends())
    rows = []
    for n in dimensions:
        paper_cpu, paper_gpu = PAPER_M2050_S.get(n, (np.nan, np.nan))
        common = {**precision_gap(n, nbh), "paper_cpu_s": paper_cpu, "paper_gpu_s": paper_gpu}
        for precision in precisions:
            problem = Weierstrass(WeierstrassInstance(n, precision))
            for backend in backends:
                budget = iterations if BACKENDS[backend].device == "gpu" else min(iterations, cpu_iterations)
                rows.append({**tabu_row(problem, nbh, backend, budget, repeats, kernel_repeats), **common})
                on_row(rows[-1])
    return pd.DataFrame(rows)


def tabu_row(problem: Weierstrass, nbh: Neighborhood, backend: str, iterations: int, repeats: int,
             kernel_repeats: int) -> dict:
    ev = prepare(problem, nbh, BACKENDS[backend])
    per_iteration, best = [], (np.inf, None)
    for seed in range(repeats):
        result = AggregatedTabu(problem, nbh, ev, iterations, np.random.default_rng(seed)).run()
        if result.status != "completed":
            raise MolsError(f"a benchmark run did not complete ({result.status}): {result.error}")
        per_iteration.append(result.wall_seconds / result.iterations)
        r = int(np.argmin(result.archive.F[:, 0]))
        best = min(best, (float(result.archive.F[r, 0]), result.archive.X[r]), key=lambda pair: pair[0])
    seconds = Spread.of(per_iteration)
    known = problem.instance.known_minimum
    in_float64 = float(Weierstrass(WeierstrassInstance(problem.n)).evaluate(best[1])[0])
    kernel = kernel_seconds(ev, kernel_repeats) if BACKENDS[backend].device == "gpu" else Spread.of(())
    return {"dimension": problem.n, "precision": problem.precision, "backend": backend, "device": ev.device,
            "neighbors": ev.n_neighbors, "iterations": iterations, "repeats": repeats,
            **seconds.columns("s_per_iteration"), **(seconds * PAPER_ITERATIONS).columns("s_paper_iterations"),
            "estimated": iterations < PAPER_ITERATIONS, "best": best[0], "best_float64": in_float64,
            "known_minimum": known, "gap": in_float64 - known, "gap_percent": 100 * (in_float64 - known) / abs(known),
            **(kernel * 1e6).columns("kernel_us")}


def kernel_seconds(gpu, repeats: int) -> Spread:
    """The evaluation kernel alone over the whole neighborhood of a random point, its state on the device."""
    x = gpu.problem.random_solution(np.random.default_rng(0))
    return neighborhood_kernel_seconds(gpu, x, repeats * KERNEL_LAUNCHES, KERNEL_LAUNCHES, np.array([1, 1], np.uint64))


def precision_gap(n: int, nbh: Neighborhood, seed: int = 0) -> dict:
    """|f32 - f64| over the neighbors of GAP_POINTS random points: the largest and the mean."""
    single, double = (Weierstrass(WeierstrassInstance(n, precision)) for precision in ("float32", "float64"))
    rng = np.random.default_rng(seed)
    gaps = []
    for r in range(GAP_POINTS):
        X = nbh.apply_many(double.random_solution(rng), np.arange(nbh.n_neighbors(n)), np.array([seed, r], np.uint64))
        gaps.append(np.abs(single.evaluate(X) - double.evaluate(X))[:, 0])
    gaps = np.concatenate(gaps)
    return {"f32_f64_max": float(gaps.max()), "f32_f64_mean": float(gaps.mean())}


def write_report(df: pd.DataFrame, output: Path) -> tuple[Path, Path]:
    """OUTPUT/weierstrass.md (environment and table) and OUTPUT/weierstrass.csv (every column)."""
    return write_report_files(df, output, "weierstrass", render_markdown)


def paper_table(df: pd.DataFrame) -> list[dict]:
    """Per dimension and arithmetic: each backend's time per iteration and for 10,000, its best value (gap
    of its float64 value), the GPU kernel alone, |f32 - f64| and the paper's times."""
    rows = []
    for (n, precision), runs in df.groupby(["dimension", "precision"], sort=False):
        row = {"n": n, "arithmetic": precision, "neighbors": f"{runs['neighbors'].iloc[0]:,}"}
        for r in runs.to_dict("records"):
            b = r["backend"]
            row[f"{b} ms/it."] = (Spread.read(r, "s_per_iteration") * 1e3).text(".3f")
            mark = " est." if r["estimated"] else ""
            row[f"{b} s / {PAPER_ITERATIONS:,} it."] = Spread.read(r, "s_paper_iterations").text(",.1f") + mark
            row[f"{b} best (gap)"] = f"{r['best']:.5f} ({r['gap']:.4f}), {r['iterations']:,} it."
            if pd.notna(r["kernel_us"]):
                row["GPU kernel µs"] = Spread.read(r, "kernel_us").text(".1f")
        row["|f32 - f64| max / mean"] = f"{runs['f32_f64_max'].iloc[0]:.4f} / {runs['f32_f64_mean'].iloc[0]:.4f}"
        row["known min"] = f"{runs['known_minimum'].iloc[0]:.5f}"
        row["paper CPU / GPU s"] = f"{runs['paper_cpu_s'].iloc[0]:g} / {runs['paper_gpu_s'].iloc[0]:g}"
        rows.append(row)
    return rows


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    return ("# Weierstrass function: tabu search with the crowns neighborhood, CPU against GPU "
            "(Luong et al. 2013, Table 5)\n\n"
            "Made by `mols bench weierstrass`. f(x) = sum_k sum_{i=1..100} 2^(-i/4) sin(2^i x_k) on [-1, 1]^n, "
            "minimised; neighbors: one random point in each of the crowns (the paper: 10,000) of radius up to "
            "1/n. Tabu search (one objective, tenure n) from a random point; ms/it. = wall time / iterations, "
            "the median over the seeds and in brackets the fastest and slowest seed (GPU kernel: over its "
            "replays), compilation excluded; \"est.\": a shorter CPU run, scaled to 10,000 "
            "iterations. Best: the best value of the seeds in the run's arithmetic; gap: that solution's "
            "float64 value minus the known minimum -2.81562 n (a numerical estimate, good to about 1e-4 n). "
            "|f32 - f64|: over the neighbors of a few random points. GPU kernel: the evaluation kernel alone "
            "(CUDA events around graph replays). Paper: Xeon E5620 against Tesla M2050, single precision, "
            "seconds for 10,000 iterations.\n\n"
            f"{markdown_list(env)}\n\n{markdown_table(paper_table(df)) if len(df) else '(no runs)'}\n")
