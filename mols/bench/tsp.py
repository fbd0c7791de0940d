"""`mols bench tsp`: the GPU local search papers' TSP table (2009 report, Table 4; IEEE TC 2013, Table 6) on the
machine at hand, with the best tour against the optimum, and swap and 2-opt move rates (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import Spread, cpu_budget, graph_seconds, time_spread, write_tables
from mols.environment import environment
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.problems.tsp.instance import load_tsp, optimal_lengths
from mols.runner import RunConfig, build_search

TABLE_INSTANCES = ("eil101", "d198", "lin318", "rd400", "pcb442", "att532", "rat783", "pcb1173", "d1291", "pr2392",
                   "fnl4461", "rl5915")  # the 2009 report's Table 4; the 2013 paper's Table 6 has eight of them
RATE_INSTANCES = ("pr2392", "pcb3038", "fnl4461", "rl5915", "random:15000:1")
BACKENDS = {"cpu1": {"backend": "cpu", "threads": 1}, "cpu": {"backend": "cpu"}, "gpu": {"backend": "gpu"}}
# Luong et al. 2013, Table 6, Tesla M2050 with texture memory: seconds for 10,000 iterations
PAPER_M2050_S = {"eil101": 0.4, "d198": 0.8, "pcb442": 3.5, "rat783": 11, "d1291": 43, "pr2392": 161,
                 "fnl4461": 616, "rl5915": 837}
# Luong et al. 2009, Table 4, configuration 3: (one core of a 3 GHz Xeon, GTX 280 with texture memory), seconds for
# an iterated tabu search of 10 x 1,000 iterations; on rl5915 the GTX 280 ran out of registers
PAPER_GTX280_S = {"eil101": (1.4, 0.6), "d198": (5.6, 1.4), "lin318": (14, 3.3), "rd400": (23, 5.6),
                  "pcb442": (29, 6.5), "att532": (40, 9.8), "rat783": (93, 23), "pcb1173": (270, 57),
                  "d1291": (365, 73), "pr2392": (2389, 285), "fnl4461": (11274, 1123), "rl5915": (20710, np.nan)}
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


def summary(runs: pd.DataFrame, iterations: int) -> pd.DataFrame:
    """One row per instance and backend (tsp_table.csv): the time per iteration over its seeds (median, min, max), its
    time for `iterations` (extrapolated where it ran fewer), the best tour of its runs against the optimum and the
    papers' times."""
    optimum, rows = optimal_lengths(), []
    for (instance, backend), cell in runs.groupby(["instance", "backend"], sort=False):
        per_iteration = Spread.of(cell["seconds"] / cell["iterations"])
        best, ran = int(cell["best"].min()), int(cell["iterations"].iloc[0])
        paper_cpu, paper_gtx280 = PAPER_GTX280_S.get(instance, (np.nan, np.nan))
        rows.append({"instance": instance, "neighbors": int(cell["neighbors"].iloc[0]), "backend": backend,
                     "seeds": len(cell), "iterations": ran, "budget": iterations, "estimated": ran < iterations,
                     **per_iteration.columns("s_per_iteration"), **(per_iteration * iterations).columns("s_budget"),
                     "best": best, "optimum": optimum[instance], "gap_percent": 100 * (best / optimum[instance] - 1),
                     "paper_m2050_s": PAPER_M2050_S.get(instance, np.nan), "paper_cpu_s": paper_cpu,
                     "paper_gtx280_s": paper_gtx280})
    return pd.DataFrame(rows)


def paper_table(table: pd.DataFrame) -> list[dict]:
    """Per instance (the summary's rows): each backend's time per iteration and for the budget, its best tour (gap),
    the GPU's accelerations and the papers' times."""
    rows = []
    for instance, cells in table.groupby("instance", sort=False):
        first = cells.iloc[0]
        row = {"instance": instance, "neighbors": f"{first['neighbors']:,}"}
        per_it = {r["backend"]: Spread.read(r, "s_per_iteration") for r in cells.to_dict("records")}
        for r in cells.to_dict("records"):
            b, mark = r["backend"], f" (extrapolated from {r['iterations']} it.)" if r["estimated"] else ""
            row[f"{b} ms/it."] = (per_it[b] * 1e3).text(".3f")
            row[f"{b} s / {r['budget']:,} it."] = Spread.read(r, "s_budget").text(",.2f") + mark
            row[f"{b} best (gap)"] = f"{r['best']:,} ({r['gap_percent']:.1f}%)"
        row["optimum"] = f"{first['optimum']:,}"
        for base in ("cpu1", "cpu"):
            if "gpu" in per_it and base in per_it:
                row[f"GPU vs {base}"] = "x" + per_it[base].over(per_it["gpu"]).text(".1f")
        row["paper M2050 s"] = "" if pd.isna(first["paper_m2050_s"]) else f"{first['paper_m2050_s']:g}"
        row["paper 2009 CPU / GTX 280 s"] = f"{first['paper_cpu_s']:g} / " + (
            "—" if pd.isna(first["paper_gtx280_s"]) else f"{first['paper_gtx280_s']:g}")
        rows.append(row)
    return rows


def sweep_seconds(gpu, x: np.ndarray, repeats: int) -> Spread:
    """Time of the evaluation kernels alone over the whole neighborhood (all chunks), on state already on the
    device (bench.common.graph_seconds)."""
    selection_for(gpu)(x, np.ones(gpu.problem.n_obj), 0, -np.inf)  # state on the device
    return graph_seconds(gpu, lambda: [gpu.enqueue_launch(first) for first in gpu.firsts], repeats)


def rate_rows(instance: str, neighborhood: str, backends, iterations: int, cpu_moves: int, repeats: int,
              seeds: int = 1) -> list[dict]:
    """Moves per second in tabu search (per backend, over `seeds` runs), and of the GPU kernel alone."""
    rows = []
    for backend in backends:
        n = city_count(instance)
        budget = iterations if backend == "gpu" else cpu_budget(iterations, n * (n - 1) // 2, cpu_moves)
        runs = [run_tabu(instance, neighborhood, backend, budget, seed) for seed in range(seeds)]
        per_iteration = Spread.of(r["seconds"] / r["iterations"] for r in runs)
        row = {key: runs[0][key] for key in ("instance", "n", "neighborhood", "backend", "neighbors", "iterations",
                                              "device")} | {"seeds": seeds}
        row |= per_iteration.columns("s_per_iteration") | per_iteration.per(row["neighbors"]).columns("moves_per_s")
        if backend == "gpu":
            for key, seconds in gpu_times(instance, neighborhood, repeats).items():
                row |= seconds.per(row["neighbors"]).columns(key)
        rows.append(row)
    return rows


def gpu_times(instance: str, neighborhood: str, repeats: int) -> dict[str, Spread]:
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
        times[key] = time_spread(lambda r, sel=selection: sel(tours[r % 4], np.ones(1), r, -np.inf), repeats)
    times["kernel_moves_per_s"] = sweep_seconds(gpu, tours[0], repeats)
    return times


def rates_table(df: pd.DataFrame) -> list[dict]:
    rows = []
    for (instance, neighborhood), runs in df.groupby(["instance", "neighborhood"], sort=False):
        row = {"instance": instance, "neighborhood": neighborhood, "neighbors": f"{runs['neighbors'].iloc[0]:,}"}
        for r in runs.to_dict("records"):
            row[f"{r['backend']} tabu moves/s"] = _giga(r, "moves_per_s")
            row[f"{r['backend']} ms/it."] = (Spread.read(r, "s_per_iteration") * 1e3).text(".3f") + \
                f", {r['iterations']} it."
            if "kernel_moves_per_s" in r and pd.notna(r["kernel_moves_per_s"]):
                row["GPU selection call, fused"] = _giga(r, "fused_call_moves_per_s")
                row["GPU selection call, F + select"] = _giga(r, "unfused_call_moves_per_s")
                row["GPU evaluation kernel alone (writes F)"] = _giga(r, "kernel_moves_per_s")
        rows.append(row)
    return rows


def _giga(row: dict, key: str) -> str:
    return (Spread.read(row, key) * 1e-9).text(",.2f", " G")


def write_report(runs: pd.DataFrame, rates: pd.DataFrame, iterations: int, folder: Path) -> Path:
    """OUT/tsp.md (environment and both tables), OUT/tsp_table.csv (per instance and backend), OUT/tsp_runs.csv
    (every run of the table) and OUT/tsp_rates.csv."""
    table = summary(runs, iterations) if len(runs) else pd.DataFrame()
    csv = {"tsp_table.csv": table, "tsp_runs.csv": runs, "tsp_rates.csv": rates}
    return write_tables(folder, csv, ("tsp.md", render_markdown(table, rates, environment())))


def render_markdown(table: pd.DataFrame, rates: pd.DataFrame, env: dict[str, str]) -> str:
    parts = [("# TSP: tabu search with the swap neighborhood, CPU against GPU (Luong et al. 2009, Table 4; 2013, "
              "Table 6)\n"),
             ("Made by `mols bench tsp`. Each cell: tabu search on one objective (the tour length), the best "
             "admissible swap per iteration (tenure n), from a random tour; times are wall times of the search "
             "(evaluation, selection, moves, archive) per iteration and for the budget: the median over seeds "
             "and in brackets the fastest and slowest seed. GPU vs: the medians' ratio, in brackets the ratios "
             "of the ranges' ends. "
             "CPU = our Numba backend on 1 core (cpu1) and on all cores (cpu); a CPU run stops after a "
             "bounded number of evaluated neighbors, and its time for the full budget is extrapolated from its "
             "time per iteration (marked). Best = the shortest tour of the runs, gap to the optimum. "
             "Paper M2050 s = the 2013 paper's Table 6, Tesla M2050 (texture version), seconds for 10,000 "
             "iterations (eight of the instances); paper 2009 = the research report's Table 4, configuration 3: one "
             "core of a 3 GHz Xeon / a GTX 280 with texture memory, seconds for an iterated tabu search of 10 x "
             "1,000 iterations (— : the GTX 280 ran out of registers).\n"),
             markdown_list(env) + "\n"]
    if len(table):
        parts.append(markdown_table(paper_table(table)) + "\n")
    if len(rates):
        parts += ["## Moves evaluated per second\n",
                  ("Each cell: the median and in brackets the range over its runs (tabu: seeds; GPU calls and "
                  "kernels: repeats). Tabu moves/s = neighbors x iterations / wall time of a tabu search "
                  "(evaluation, device-side "
                  "selection, move, archive). GPU selection call = one call of tabu search's selection (state in, evaluation "
                  "and selection, the best move out), median over rotating random tours: fused = one kernel "
                  "evaluates and reduces, F is never written (the default); F + select = the evaluation kernel "
                  "writes F, select_partial reads it. GPU evaluation kernel alone = the kernels writing F over "
                  "the whole neighborhood (all chunks), CUDA events around graph replays, state already on the "
                  "device.\n"),
                  markdown_table(rates_table(rates)) + "\n"]
    return "\n".join(parts)
