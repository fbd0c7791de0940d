"""`mols bench tsp`: the GPU local search paper's TSP table (IEEE TC 2013, Table 6) on the machine at hand, with the
best tour against the optimum, and swap and 2-opt move rates (docs/internals.md)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import cpu_budget, graph_seconds, median_seconds
from mols.environment import environment
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.problems.tsp.instance import load_tsp, optimal_lengths
from mols.runner import RunConfig, build_search

TABLE_INSTANCES = ("eil101", "d198", "pcb442", "rat783", "d1291", "pr2392", "fnl4461", "rl5915")
RATE_INSTANCES = ("pr2392", "pcb3038", "fnl4461", "rl5915", "random:15000:1")
BACKENDS = {"cpu1": {"backend": "cpu", "threads": 1}, "cpu": {"backend": "cpu"}, "gpu": {"backend": "gpu"}}
# Table 6, Tesla M2050 with texture memory: seconds for 10,000 iterations
PAPER_M2050_S = {"eil101": 0.4, "d198": 0.8, "pcb442": 3.5, "rat783": 11, "d1291": 43, "pr2392": 161,
                 "fnl4461": 616, "rl5915": 837}
PAPER_ITERATIONS = 10_000


def default_backends() -> list[str]:
    return list(BACKENDS) if gpu_available() else ["cpu1", "cpu"]


def run_tabu(instance: str, neighborhood: str, backend: str, iterations: int, seed: int) -> dict:
    """One tabu search (one objective: its score is the tour length); its time and best tour."""
    search = build_search(RunConfig(instance=instance, problem="tsp", algorithm="tabu", neighborhood=neighborhood,
                                    iterations=iterations, seed=seed, **BACKENDS[backend]))
    result = search.run()
    if result.status != "completed":
        raise MolsError(f"tabu search on {instance} ({backend}) {result.status}: {result.error}")
    return {"instance": instance, "n": search.problem.n, "neighborhood": neighborhood, "backend": backend,
            "seed": seed, "neighbors": result.n_neighbors, "iterations": result.iterations,
            "seconds": result.wall_seconds, "best": int(result.archive.F.min()), "device": search.evaluator.device}


def table_runs(instances, backends, iterations: int, seeds: int, cpu_moves: int,
               on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    rows = []
    for instance in instances:
        for backend in backends:
            for seed in range(seeds):
                n = city_count(instance)
                budget = iterations if backend == "gpu" else cpu_budget(iterations, n * (n - 1) // 2, cpu_moves)
                rows.append(run_tabu(instance, "swap", backend, budget, seed))
                on_row(rows[-1])
    return pd.DataFrame(rows)


def city_count(instance: str) -> int:
    return load_tsp(instance).n


def paper_table(df: pd.DataFrame, iterations: int) -> list[dict]:
    """Per instance: each backend's median time per iteration, its time for `iterations` (extrapolated
    where it ran fewer), the best tour of its runs against the optimum, and the GPU's accelerations."""
    optimum = optimal_lengths()
    rows = []
    for instance, runs in df.groupby("instance", sort=False):
        row = {"instance": instance, "neighbors": f"{runs['neighbors'].iloc[0]:,}"}
        per_it = {}
        for backend, cell in runs.groupby("backend", sort=False):
            per_it[backend] = statistics.median(cell["seconds"] / cell["iterations"])
            ran = int(cell["iterations"].iloc[0])
            mark = "" if ran >= iterations else f" (extrapolated from {ran} it.)"
            row[f"{backend} ms/it."] = f"{per_it[backend] * 1e3:.3f}"
            row[f"{backend} s / {iterations:,} it."] = f"{per_it[backend] * iterations:,.2f}{mark}"
            best = int(cell["best"].min())
            row[f"{backend} best (gap)"] = f"{best:,} ({100 * (best / optimum[instance] - 1):.1f}%)"
        row["optimum"] = f"{optimum[instance]:,}"
        if "gpu" in per_it:
            for base in ("cpu1", "cpu"):
                if base in per_it:
                    row[f"GPU vs {base}"] = f"x{per_it[base] / per_it['gpu']:.1f}"
            row["paper M2050 s"] = PAPER_M2050_S.get(instance, "")
        rows.append(row)
    return rows


def sweep_seconds(gpu, x: np.ndarray, repeats: int) -> float:
    """Median time of the evaluation kernels alone over the whole neighborhood (all chunks), on state
    already on the device (bench.common.graph_seconds)."""
    selection_for(gpu)(x, np.ones(gpu.problem.n_obj), 0, -np.inf)  # state on the device
    return graph_seconds(gpu, lambda: [gpu.enqueue_launch(first) for first in gpu.firsts], repeats)


def rate_rows(instance: str, neighborhood: str, backends, iterations: int, cpu_moves: int, repeats: int) -> list[dict]:
    """Moves per second in tabu search (per backend), and of the GPU kernel alone."""
    rows = []
    for backend in backends:
        n = city_count(instance)
        budget = iterations if backend == "gpu" else cpu_budget(iterations, n * (n - 1) // 2, cpu_moves)
        row = run_tabu(instance, neighborhood, backend, budget, seed=0)
        row["moves_per_s"] = row["neighbors"] * row["iterations"] / row["seconds"]
        if backend == "gpu":
            row |= {key: row["neighbors"] / seconds for key, seconds in gpu_times(instance, neighborhood, repeats).items()}
        rows.append(row)
    return rows


def gpu_times(instance: str, neighborhood: str, repeats: int) -> dict[str, float]:
    """Seconds of one call of tabu search's selection with the fused selection kernel and with evaluation into F
    then select_partial (rotating random tours), and of the evaluation kernels alone."""
    from mols.neighborhoods import get_neighborhood
    from mols.problems import load_problem

    problem, nbh = load_problem("tsp", instance), get_neighborhood(neighborhood)
    rng = np.random.default_rng(0)
    tours = [problem.random_solution(rng) for _ in range(4)]
    times = {}
    for key, fused in (("fused_call_moves_per_s", True), ("unfused_call_moves_per_s", False)):
        gpu = prepare(problem, nbh, BackendSpec("gpu", fused=fused))
        selection = selection_for(gpu)
        times[key] = median_seconds(lambda r, sel=selection: sel(tours[r % 4], np.ones(1), r, -np.inf), repeats)
    times["kernel_moves_per_s"] = sweep_seconds(gpu, tours[0], repeats)
    return times


def rates_table(df: pd.DataFrame) -> list[dict]:
    rows = []
    for (instance, neighborhood), runs in df.groupby(["instance", "neighborhood"], sort=False):
        row = {"instance": instance, "neighborhood": neighborhood, "neighbors": f"{runs['neighbors'].iloc[0]:,}"}
        for r in runs.to_dict("records"):
            row[f"{r['backend']} tabu moves/s"] = _giga(r["moves_per_s"])
            row[f"{r['backend']} ms/it."] = f"{r['seconds'] / r['iterations'] * 1e3:.3f} ({r['iterations']} it.)"
            if "kernel_moves_per_s" in r and pd.notna(r["kernel_moves_per_s"]):
                row["GPU selection call, fused"] = _giga(r["fused_call_moves_per_s"])
                row["GPU selection call, F + select"] = _giga(r["unfused_call_moves_per_s"])
                row["GPU evaluation kernel alone (writes F)"] = _giga(r["kernel_moves_per_s"])
        rows.append(row)
    return rows


def _giga(rate: float) -> str:
    return f"{rate / 1e9:,.2f} G"


def write_report(table: pd.DataFrame, rates: pd.DataFrame, iterations: int, folder: Path) -> Path:
    """OUT/tsp.md (environment and both tables), OUT/tsp_table.csv and OUT/tsp_rates.csv."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "tsp_table.csv", index=False)
        rates.to_csv(folder / "tsp_rates.csv", index=False)
        md = folder / "tsp.md"
        md.write_text(render_markdown(table, rates, iterations, environment()))
    except OSError as err:
        raise MolsError(f"--output {folder}: {err.strerror}") from None
    return md


def render_markdown(table: pd.DataFrame, rates: pd.DataFrame, iterations: int, env: dict[str, str]) -> str:
    parts = ["# TSP: tabu search with the swap neighborhood, CPU against GPU (Luong et al. 2013, Table 6)\n",
             ("Made by `mols bench tsp`. Each cell: tabu search on one objective (the tour length), the best "
             "admissible swap per iteration (tenure n), from a random tour; times are wall times of the search "
             "(evaluation, selection, moves, archive), medians over seeds, per iteration and for the budget. "
             "CPU = our Numba backend on 1 core (cpu1) and on all cores (cpu); a CPU run stops after a "
             "bounded number of evaluated neighbors, and its time for the full budget is extrapolated from its "
             "time per iteration (marked). Best = the shortest tour of the runs, gap to the optimum. "
             "Paper M2050 s = Table 6's time on a Tesla M2050 (texture version) for 10,000 iterations.\n"),
             markdown_list(env) + "\n"]
    if len(table):
        parts.append(markdown_table(paper_table(table, iterations)) + "\n")
    if len(rates):
        parts += ["## Moves evaluated per second\n",
                  ("Tabu moves/s = neighbors x iterations / wall time of a tabu search (evaluation, device-side "
                  "selection, move, archive). GPU selection call = one call of tabu search's selection (state in, evaluation "
                  "and selection, the best move out), median over rotating random tours: fused = one kernel "
                  "evaluates and reduces, F is never written (the default); F + select = the evaluation kernel "
                  "writes F, select_partial reads it. GPU evaluation kernel alone = the kernels writing F over "
                  "the whole neighborhood (all chunks), CUDA events around graph replays, state already on the "
                  "device.\n"),
                  markdown_table(rates_table(rates)) + "\n"]
    return "\n".join(parts)
