"""`mols bench pymoo`: at an equal wall time, the hypervolume of mols' PLS-1 and aggregated tabu search against
pymoo's NSGA-II and NSGA-III, on the flowshop's sizes 20x10 to 200x20 (docs/internals.md)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.backends import BackendSpec
from mols.bench.common import Spread, write_report_files
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.runner import RunConfig, run_problem, solve

INSTANCES = ("020_10_01", "050_10_01", "050_20_01", "100_10_01", "100_20_01", "200_10_01", "200_20_01")
METHODS = ("pls", "tabu", "nsga2", "nsga3")
WALL_SECONDS = 2.0
OBJECTIVES = ("makespan", "tardiness")  # the bi-objective flowshop, for every method
PROBE_ITERATIONS = 20  # mols' first probe run; they double until one takes PROBE_SHARE of the wall time
PROBE_SHARE = 0.1
NSGA2_POPULATION = 100
NSGA3_PARTITIONS = {2: 99, 3: 12}  # Das-Dennis partitions by objectives: 100 and 91 reference directions


def run_config(instance: str, method: str, seed: int, backend: str, iterations: int) -> RunConfig:
    """The one place a run's options are set: mols' runs are this configuration, the genetic algorithms its
    problem on its backend."""
    return RunConfig(instance, algorithm="tabu" if method == "tabu" else "pls", iterations=iterations, seed=seed,
                     backend=backend, objectives=OBJECTIVES)


def run(instances: Iterable[str] = INSTANCES, methods: Iterable[str] = METHODS, wall: float = WALL_SECONDS,
        seeds: int = 3, backend: str = "auto", on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    """One row per instance, method and seed, with its front's hypervolume against the instance's common reference
    point (docs/internals.md)."""
    backend = BackendSpec(backend).resolved().device
    rows = []
    for instance in instances:
        runs = []
        for method in methods:
            timed = mols_run if method in ("pls", "tabu") else ga_run
            timed(instance, method, 0, backend, min(wall, 0.2))  # untimed: every kernel compiled
            for seed in range(seeds):
                row, front = timed(instance, method, seed, backend, wall)
                runs.append((row, front))
                on_row(row)
        rows += with_hypervolumes(runs)
    return pd.DataFrame(rows)


def mols_run(instance: str, method: str, seed: int, backend: str, wall: float) -> tuple[dict, np.ndarray]:
    """PLS-1 or tabu search for about `wall` seconds: the probes' rate sets the budget, the timer caps it."""
    from mols.pymoo import Deadline

    iterations = calibrated_iterations(instance, method, seed, backend, wall)
    start = time.perf_counter()
    result = solve(run_config(instance, method, seed, backend, iterations), stop=Deadline(wall))
    seconds = time.perf_counter() - start
    if result.status == "failed":
        raise MolsError(f"a benchmark run failed: {result.error}")
    return row_of(instance, method, seed, backend, seconds, result.evaluated_neighbors, iterations,
                  len(result.archive)), result.archive.F


def calibrated_iterations(instance: str, method: str, seed: int, backend: str, wall: float) -> int:
    """The iterations that take about `wall` seconds at the rate of the first probe run (doubling budgets from
    PROBE_ITERATIONS) that takes PROBE_SHARE of it."""
    iterations = PROBE_ITERATIONS
    while True:
        probe = solve(run_config(instance, method, seed, backend, iterations))
        if probe.wall_seconds >= PROBE_SHARE * wall or iterations >= 2**24:
            return max(PROBE_ITERATIONS, int(wall * probe.iterations / max(probe.wall_seconds, 1e-9)))
        iterations *= 2


def ga_run(instance: str, method: str, seed: int, backend: str, wall: float) -> tuple[dict, np.ndarray]:
    """NSGA-II or NSGA-III through mols.pymoo for `wall` seconds."""
    from pymoo.optimize import minimize

    from mols.pymoo import MolsProblem

    config = run_config(instance, method, seed, backend, 1)
    problem = MolsProblem(run_problem(config), backend=config.backend)
    algorithm = genetic_algorithm(problem, method)
    start = time.perf_counter()
    res = minimize(problem, algorithm, ("time", wall), seed=config.seed)
    seconds = time.perf_counter() - start
    F = np.unique(res.F, axis=0)
    return row_of(instance, method, seed, backend, seconds, res.algorithm.evaluator.n_eval, res.algorithm.n_gen - 1,
                  len(F)), F


def genetic_algorithm(problem, method: str):
    """pymoo's NSGA-II (nsga2) or NSGA-III (nsga3) for a MolsProblem, with the operators that fit its solutions."""
    from pymoo.algorithms.moo.nsga2 import NSGA2
    from pymoo.algorithms.moo.nsga3 import NSGA3
    from pymoo.util.ref_dirs import get_reference_directions

    from mols.pymoo import operators

    if method == "nsga2":
        return NSGA2(pop_size=NSGA2_POPULATION, **operators(problem))
    directions = get_reference_directions("das-dennis", problem.n_obj, n_partitions=NSGA3_PARTITIONS[problem.n_obj])
    return NSGA3(directions, pop_size=len(directions) + 1, **operators(problem))


def row_of(instance: str, method: str, seed: int, backend: str, seconds: float, evaluated: int, steps: int,
           front: int) -> dict:
    return {"instance": instance, "method": method, "seed": seed, "backend": backend, "seconds": seconds,
            "evaluated": evaluated, "steps": steps, "front": front}


def with_hypervolumes(runs: list[tuple[dict, np.ndarray]]) -> list[dict]:
    """The runs' rows of one instance, each with its front's hypervolume against their common reference set."""
    from mols.reporting.indicators import indicators, reference_set

    reference = reference_set([front for _, front in runs])
    return [{**row, "hv": indicators(front, reference)["hv"]} for row, front in runs]


def write_report(df: pd.DataFrame, output: Path) -> tuple[Path, Path]:
    """OUTPUT/pymoo.md (environment and medians) and OUTPUT/pymoo.csv (every run)."""
    return write_report_files(df, output, "pymoo", render_markdown)


def median_table(df: pd.DataFrame) -> list[dict]:
    """Per instance and method: the medians over the seeds."""
    rows = []
    for (instance, method), runs in df.groupby(["instance", "method"], sort=False):
        rows.append({"instance": instance, "method": method, "seeds": len(runs),
                     "hypervolume": f"{runs['hv'].median():.4f}",
                     "seconds": Spread.of(runs["seconds"]).text(".2f"),
                     "solutions evaluated": f"{statistics.median(runs['evaluated']):,.0f}",
                     "iterations / generations": f"{statistics.median(runs['steps']):,.0f}",
                     "front size": f"{statistics.median(runs['front']):,.0f}"})
    return rows


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    backend = df["backend"].iloc[0] if len(df) else "-"
    sizes = ", ".join(df["instance"].unique()) if len(df) else "-"
    return ("# mols against pymoo at an equal wall time: flowshop hypervolumes\n\n"
            "Made by `mols bench pymoo`. Every run takes about the same wall time; PLS-1 (PLS-≠) and aggregated tabu "
            "search run through mols.solve, NSGA-II and NSGA-III through mols.pymoo with mols' backend evaluating "
            "their populations. Hypervolume: of each front, normalised by the ideal and nadir points of the union of "
            "the instance's fronts, up to 1.1 (higher is better). Medians over the seeds (seconds: with their range "
            "in brackets; pymoo.csv has every run). Solutions evaluated: "
            "neighbors for mols, individuals for pymoo.\n\n"
            f"{markdown_list({**env, 'backend': backend, 'instances': sizes})}\n\n"
            f"{markdown_table(median_table(df)) if len(df) else '(no runs)'}\n")
