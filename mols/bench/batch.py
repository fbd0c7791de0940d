"""`mols bench batch`: neighbors per second of one tabu search against batches of searches sharing each launch, and
aggregated tabu search's weight vectors walked side by side against one alone (docs/internals.md)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from mols.backends import prepare
from mols.bench.common import Spread, write_tables
from mols.markdown import markdown_list, markdown_table
from mols.problems import load_problem
from mols.runner import RunConfig, make_search, solve
from mols.runner.batch import build_batch, seed_configs

CASES = {"020_10_01": "flowshop", "050_20_01": "flowshop", "200_20_01": "flowshop", "tai12a": "qap",
         "tai50a": "qap", "tai100a": "qap", "kroA100": "tsp", "lin318": "tsp"}


def search_config(instance: str, backend: str, iterations: int, seed: int = 0, **fields) -> RunConfig:
    problem = CASES.get(instance, "flowshop")
    k = load_problem(problem, instance).n_obj
    fields.setdefault("weights", (1.0,) * k)
    return RunConfig(instance, problem=problem, algorithm="tabu", backend=backend, iterations=iterations, seed=seed,
                     **fields)


def batch_seconds(config: RunConfig, size: int, repeats: int) -> Spread:
    """Search times of a SearchBatch of `size` searches (seeds config.seed ..) on one evaluator."""
    return Spread.of(build_batch(config, size).run()[0].wall_seconds for _ in range(repeats))


def _one_core(config: RunConfig) -> float:
    return solve(dataclasses.replace(config, threads=1)).wall_seconds


def cpu_batch_seconds(config: RunConfig, size: int, repeats: int) -> Spread:
    """Wall times of `size` searches spread over the cores, one per worker process on one core (as many
    processes as cores at most)."""
    cores = os.cpu_count() or 1
    times = []
    with ProcessPoolExecutor(min(size, cores), mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_one_core, [dataclasses.replace(config, iterations=5)] * min(size, cores)))  # compile
        for _ in range(repeats):
            start = time.perf_counter()
            list(pool.map(_one_core, seed_configs(config, size)))
            times.append(time.perf_counter() - start)
    return Spread.of(times)


def rows_of(instance: str, sizes: list[int], iterations: int, repeats: int, gpu: bool, max_lane_bytes: float):
    """The rows of one instance: GPU batches (those whose lanes fit max_lane_bytes of F and tabu memory), CPU one
    search on all cores and batches of one search per core."""
    config = search_config(instance, "cpu", iterations)
    problem = load_problem(config.problem, instance)
    n_neighbors = problem.neighborhood(config.neighborhood).n_neighbors(problem.n)
    rows = []

    def row(device: str, size: int, steps: int, seconds: Spread) -> dict:
        done = {"instance": instance, "problem": config.problem, "neighbors": n_neighbors, "device": device,
                "searches": size, "iterations": steps, **seconds.columns("seconds"),
                **seconds.per(size * steps * n_neighbors).columns("neighbors_per_s")}
        print(done, flush=True)  # as it comes: a long benchmark shows its progress
        return done

    if gpu:
        lane_bytes = n_neighbors * (4 + problem.n_obj * problem.dtype.itemsize)
        gpu_config = search_config(instance, "gpu", iterations)
        for size in sizes:
            if size * lane_bytes <= max_lane_bytes:
                rows.append(row("gpu", size, iterations, batch_seconds(gpu_config, size, repeats)))
    cpu_iterations = max(10, iterations // 10)
    cores = os.cpu_count() or 1
    config = search_config(instance, "cpu", cpu_iterations)
    rows.append(row(f"cpu x{cores}", 1, cpu_iterations, batch_seconds(config, 1, repeats)))
    for size in sorted({1, cores}):
        rows.append(row("cpu x1 per search", size, cpu_iterations, cpu_batch_seconds(config, size, repeats)))
    return rows


def vectors_rows(instance: str, iterations: int, repeats: int) -> list[dict]:
    """Aggregated tabu search's 10 weight vectors (3 objectives, 3 partitions) side by side in lanes, against
    one vector alone with the same steps, and the 10 vectors one after another (lanes off)."""
    from mols.backends import BackendSpec

    out = []
    cases = [("one vector", {"weights": (1.0, 1.0, 1.0)}, iterations, True),
             ("10 vectors side by side", {"weights": None}, 10 * iterations, True),
             ("10 vectors one after another", {"weights": None}, 10 * iterations, False)]
    for label, fields, budget, lanes in cases:
        config = search_config(instance, "gpu", budget, **fields)
        problem = load_problem(config.problem, instance)
        nbh = problem.neighborhood(config.neighborhood)
        times = []
        for _ in range(repeats):
            evaluator = prepare(problem, nbh, BackendSpec("gpu", lanes=lanes))
            times.append(make_search(config, problem, nbh, evaluator).run().wall_seconds)
        out.append({"instance": instance, "run": label, "iterations": budget, **Spread.of(times).columns("seconds")})
    base = Spread.read(out[0], "seconds")
    return [r | Spread.read(r, "seconds").over(base).columns("x_one_vector") for r in out]


def tables(instances: list[str], sizes: list[int], iterations: int, repeats: int, gpu: bool,
           max_lane_bytes: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = [r for instance in instances for r in rows_of(instance, sizes, iterations, repeats, gpu, max_lane_bytes)]
    one = {(r["instance"], r["device"]): Spread.read(r, "neighbors_per_s") for r in rows if r["searches"] == 1}
    nothing = Spread.of(())
    df = pd.DataFrame([r | Spread.read(r, "neighbors_per_s").over(one.get((r["instance"], r["device"]), nothing))
                       .columns("x_one_search") for r in rows])
    vectors = [r for instance in instances if CASES.get(instance, "flowshop") == "flowshop"
               for r in vectors_rows(instance, iterations, repeats)] if gpu else []
    return df, pd.DataFrame(vectors)


def write_report(df: pd.DataFrame, vectors: pd.DataFrame, folder: Path) -> Path:
    """folder/batch.md, batch.csv and vectors.csv (median, min and max of every time, rate and ratio); the .md."""
    from mols.environment import environment

    return write_tables(folder, {"batch.csv": df, "vectors.csv": vectors},
                        ("batch.md", render(df, vectors, environment())))


def render(df: pd.DataFrame, vectors: pd.DataFrame, env: dict) -> str:
    rows = [{key: r[key] for key in ("instance", "problem", "neighbors", "device", "searches", "iterations")}
            | {"seconds": Spread.read(r, "seconds").text(".4g"),
               "neighbors/s": Spread.read(r, "neighbors_per_s").text(",.4g"),
               "x one search": Spread.read(r, "x_one_search").text(".3g")} for r in df.to_dict("records")]
    parts = ["# Batches of tabu searches sharing each launch (`mols bench batch`)\n", markdown_list(env) + "\n",
             ("Neighbors per second of B searches together (each `iterations` steps); `x one search`: against one "
              "search on the same device. Each cell: the median over the timed batches and in brackets their range "
              "(ratios: the medians', in brackets the ratios of the ranges' ends).\n"), markdown_table(rows) + "\n"]
    if len(vectors):
        shown = [{"instance": r["instance"], "run": r["run"], "iterations": r["iterations"],
                  "seconds": Spread.read(r, "seconds").text(".4g"),
                  "x one vector": Spread.read(r, "x_one_vector").text(".3g")} for r in vectors.to_dict("records")]
        parts += [("Aggregated tabu search: its 10 weight vectors side by side (lanes) and one after another, "
                   "against one vector alone with the same steps per vector.\n"), markdown_table(shown) + "\n"]
    return "\n".join(parts)
