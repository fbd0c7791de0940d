"""`mols bench ppp`: the PPP tables of Luong, Melab & Talbi (2009 report, Tables 2 and 3; IEEE TC 2013, Tables 3 and
4: tabu search, Hamming 1 and 2) on this machine, Hamming 3 where affordable, and how often tabu search solves each
instance (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import Spread, cpu_budget, write_report_files
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import Neighborhood, get_neighborhood
from mols.problems.ppp import PAPER_SIZES, Ppp, load_ppp
from mols.problems.ppp.instance import PAPER_2013_SIZES
from mols.search.base import SearchResult

PAPER_ITERATIONS = 10_000
BACKENDS = {"cpu1": BackendSpec("cpu", threads=1), "cpu": BackendSpec("cpu"), "gpu": BackendSpec("gpu")}
# timed: the papers' sixteen sizes; Hamming 3 (n^3 / 6 neighbors) up to 201-217
SIZES = {"hamming1": PAPER_SIZES, "hamming2": PAPER_SIZES, "hamming3": PAPER_SIZES[:5]}
SUCCESS_SIZES = {name: ("73-73", "81-81", "101-117") for name in SIZES}
# Luong et al. 2013, Tables 3 (hamming1) and 4 (hamming2), Tesla M2050 with texture memory: seconds for 10,000
# iterations
PAPER_M2050_S = {
    "hamming1": dict(zip(PAPER_2013_SIZES, (1.7, 2.0, 2.1, 4.6, 8.4, 25, 28, 42, 58))),
    "hamming2": dict(zip(PAPER_2013_SIZES, (0.2, 0.2, 0.3, 1.6, 10, 35, 81, 154, 342))),
}
# Luong et al. 2009, Tables 2 (hamming1) and 3 (hamming2), configuration 3: (one core of a 3 GHz Xeon, GTX 280 with
# texture memory), seconds for an iterated tabu search of 10 x 1,000 iterations
PAPER_GTX280_S = {
    "hamming1": dict(zip(PAPER_SIZES, ((1.1, 3.0), (1.3, 3.3), (2.0, 4.0), (2.2, 4.2), (8.1, 7.7), (17, 11), (31, 14),
                                       (55, 40), (105, 43), (148, 47), (200, 50), (262, 54), (336, 58), (427, 78),
                                       (539, 82), (687, 85)))),
    "hamming2": dict(zip(PAPER_SIZES, ((2.1, 0.2), (2.7, 0.2), (5.2, 0.3), (7.0, 0.4), (49, 1.9), (169, 6.2),
                                       (405, 14), (804, 29), (2056, 51), (3590, 84), (5405, 128), (7900, 187),
                                       (11083, 262), (14974, 357), (19532, 460), (25026, 587)))),
}


def default_backends() -> list[str]:
    return [name for name, spec in BACKENDS.items() if spec.device != "gpu" or gpu_available()]


def default_success_backend() -> str:
    return "gpu" if gpu_available() else "cpu"


def _tabu(problem: Ppp, nbh: Neighborhood, evaluator, iterations: int, seed: int, target=None) -> SearchResult:
    result = AggregatedTabu(problem, nbh, evaluator, iterations, np.random.default_rng(seed), target=target).run()
    if result.status != "completed":
        raise MolsError(f"tabu search on ppp {problem.instance_name} ({nbh.name}) {result.status}: {result.error}")
    return result


def time_cell(problem: Ppp, nbh: Neighborhood, backend: str, iterations: int, cpu_moves: int,
              repeats: int) -> dict:
    """One backend's seconds per tabu iteration over seeds 0 .. repeats - 1 (median, min and max)."""
    evaluator = prepare(problem, nbh, BACKENDS[backend])
    budget = iterations if backend == "gpu" else min(iterations, cpu_budget(iterations, evaluator.n_neighbors, cpu_moves))
    per_iteration = Spread.of(result.wall_seconds / result.iterations for result in
                              (_tabu(problem, nbh, evaluator, budget, seed) for seed in range(repeats)))
    return {f"{backend}_iterations": budget, **per_iteration.columns(f"{backend}_s_per_iteration"),
            **(per_iteration * PAPER_ITERATIONS).columns(f"{backend}_s_{PAPER_ITERATIONS}")}


def success_cell(problem: Ppp, nbh: Neighborhood, backend: str, runs: int, run_iterations: int) -> dict:
    """Runs seeded 0 .. runs - 1 that stop at cost 0: how many solve the instance, and how fast."""
    evaluator = prepare(problem, nbh, BACKENDS[backend])
    reached = []
    for seed in range(runs):
        result = _tabu(problem, nbh, evaluator, run_iterations, seed, target=problem.target)
        best = result.archive.X[np.argmin(result.archive.F[:, 0])]
        if problem.is_solution(best):
            reached.append(result.reached)
    return {"success_backend": backend, "runs": runs, "run_iterations": run_iterations, "successes": len(reached),
            "success_rate": len(reached) / runs,
            **Spread.of(r.iteration for r in reached).columns("iterations_to_success"),
            **Spread.of(r.seconds for r in reached).columns("s_to_success")}


def cells(sizes: dict[str, tuple[str, ...]], success_sizes: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """(neighborhood, instance) of either part, by neighborhood and then as listed (the papers' order)."""
    pairs = [(nbh, inst) for part in (sizes, success_sizes) for nbh, insts in part.items() for inst in insts]
    order = {nbh: k for k, nbh in enumerate(dict.fromkeys(nbh for nbh, _ in pairs))}
    return sorted(dict.fromkeys(pairs), key=lambda pair: order[pair[0]])


def run(sizes: dict[str, tuple[str, ...]] | None = None, backends: list[str] | None = None, iterations: int = 1000,
        cpu_moves: int = 20_000_000, repeats: int = 3, success_sizes: dict[str, tuple[str, ...]] | None = None,
        runs: int = 30, run_iterations: int = PAPER_ITERATIONS, success_backend: str | None = None,
        on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    """One row per neighborhood and instance: `sizes` maps a neighborhood to the instances timed on every
    backend (default SIZES), `success_sizes` to those whose success rate is measured (default
    SUCCESS_SIZES; runs = 0: none)."""
    sizes = SIZES if sizes is None else sizes
    success_sizes = SUCCESS_SIZES if success_sizes is None else success_sizes
    backends = default_backends() if backends is None else backends
    success_backend = success_backend or default_success_backend()
    rows = []
    for nbh_name, instance in cells(sizes, success_sizes if runs else {}):
        problem, nbh = load_ppp(instance), get_neighborhood(nbh_name)
        row = {"instance": instance, "m": problem.instance.m, "n": problem.n, "neighborhood": nbh_name,
               "neighbors": nbh.n_neighbors(problem.n)}
        if instance in sizes.get(nbh_name, ()):
            for backend in backends:
                row |= time_cell(problem, nbh, backend, iterations, cpu_moves, repeats)
            row["paper_m2050_s"] = PAPER_M2050_S.get(nbh_name, {}).get(instance, np.nan)
            row["paper_cpu_s"], row["paper_gtx280_s"] = PAPER_GTX280_S.get(nbh_name, {}).get(instance, (np.nan,) * 2)
        if runs and instance in success_sizes.get(nbh_name, ()):
            row |= success_cell(problem, nbh, success_backend, runs, run_iterations)
        rows.append(row)
        on_row(row)
    return pd.DataFrame(rows)


def write_report(df: pd.DataFrame, output: Path) -> tuple[Path, Path]:
    """output/ppp.md (the environment and both tables) and output/ppp.csv (every column)."""
    return write_report_files(df, output, "ppp", render_markdown)


def _seconds(value: float) -> str:
    return "" if pd.isna(value) else f"{value:,.3g}"


def time_table(df: pd.DataFrame) -> list[dict[str, str]]:
    backends = [b for b in BACKENDS if f"{b}_s_per_iteration" in df]
    rows = []
    for r in df.to_dict("records"):
        if all(pd.isna(r.get(f"{b}_s_per_iteration")) for b in backends):
            continue
        row = {"neighborhood": r["neighborhood"], "instance": r["instance"], "neighbors": f"{r['neighbors']:,}"}
        per_iteration = {b: Spread.read(r, f"{b}_s_per_iteration") for b in backends}
        for b in backends:
            estimated = " est." if r[f"{b}_iterations"] < PAPER_ITERATIONS else ""
            row[f"{b} ms/it."] = f"{(per_iteration[b] * 1e3).text()}, {r[f'{b}_iterations']:.0f} it."
            row[f"{b} s / {PAPER_ITERATIONS:,} it."] = Spread.read(r, f"{b}_s_{PAPER_ITERATIONS}").text() + estimated
        for base in ("cpu1", "cpu"):
            if "gpu" in backends and base in backends:
                row[f"gpu vs {base}"] = "x" + per_iteration[base].over(per_iteration["gpu"]).text(".1f")
        row["paper M2050 s"] = _seconds(r["paper_m2050_s"])
        row["paper 2009 CPU / GTX 280 s"] = "" if pd.isna(r["paper_cpu_s"]) else \
            f"{_seconds(r['paper_cpu_s'])} / {_seconds(r['paper_gtx280_s'])}"
        rows.append(row)
    return rows


def success_table(df: pd.DataFrame) -> list[dict[str, str]]:
    if "successes" not in df:
        return []
    return [{"neighborhood": r["neighborhood"], "instance": r["instance"], "backend": r["success_backend"],
             "runs": f"{r['runs']:.0f}", "iterations at most": f"{r['run_iterations']:,.0f}",
             "successes": f"{r['successes']:.0f} ({100 * r['success_rate']:.0f} %)",
             "iterations to success": Spread.read(r, "iterations_to_success").text(",.0f"),
             "s to success": Spread.read(r, "s_to_success").text()}
            for r in df.to_dict("records") if not pd.isna(r.get("successes"))]


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    times, successes = time_table(df), success_table(df)
    parts = [("# PPP: tabu search with Hamming neighborhoods, CPU against GPU (Luong et al. 2009, Tables 2 and 3; "
              "2013, Tables 3 and 4)\n"),
             ("Made by `mols bench ppp`. Instances M-N generated with seed 1 (instances/ppp/SOURCE.md). Time: "
              "tabu search on Knudsen and Meier's cost (tenure n) from a random start, not stopping at cost 0; "
              "ms/it. = wall time / iterations (compilation excluded), the median over seeds and in brackets "
              "the fastest and slowest seed, with the iterations run; the time for 10,000 iterations is that "
              "rate times 10,000 (est.: fewer ran). gpu vs: the medians' ratio, in brackets the ratios of the "
              "ranges' ends. cpu1 / cpu: Numba on 1 core / all cores; gpu: ppp.cu, one warp per neighbor "
              "(Hamming 2: one thread, over the columns as bits sorted by Y). Paper M2050 s = Luong et al. 2013, "
              "Tables 3 (Hamming 1) and 4 (Hamming 2), Tesla M2050 with texture memory, seconds for 10,000 "
              "iterations as printed (nine of the sizes); paper 2009 = the research report's Tables 2 and 3, "
              "configuration 3: one core of a 3 GHz Xeon / a GTX 280 with texture memory, seconds for an "
              "iterated tabu search of 10 x 1,000 iterations.\n"),
             markdown_list(env) + "\n"]
    if times:
        parts += ["## Time per iteration\n", markdown_table(times) + "\n"]
    if successes:
        parts += ["## Success rate\n",
                  ("Tabu runs seeded 0 .. runs - 1, each stopping at cost 0 or after its iterations; a success is "
                   "a run whose best solution solves the PPP (A V >= 0 and A V = S as multisets). Iterations and "
                   "seconds to success: the median and the range over the successful runs, compilation "
                   "excluded.\n"),
                  markdown_table(successes) + "\n"]
    return "\n".join(parts)
