"""`mols bench batch`: neighbors per second of one tabu search against batches of searches sharing each launch, and
aggregated tabu search's weight vectors walked side by side against one alone (docs/internals.md)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from mols.backends import prepare
from mols.errors import MolsError
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


def batch_seconds(config: RunConfig, size: int, repeats: int) -> float:
    """Median search time of a SearchBatch of `size` searches (seeds config.seed ..) on one evaluator."""
    return statistics.median(build_batch(config, size).run()[0].wall_seconds for _ in range(repeats))


def _one_core(config: RunConfig) -> float:
    return solve(dataclasses.replace(config, threads=1)).wall_seconds


def cpu_batch_seconds(config: RunConfig, size: int, repeats: int) -> float:
    """Median wall time of `size` searches spread over the cores, one per worker process on one core (as many
    processes as cores at most)."""
    cores = os.cpu_count() or 1
    times = []
    with ProcessPoolExecutor(min(size, cores), mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_one_core, [dataclasses.replace(config, iterations=5)] * min(size, cores)))  # compile
        for _ in range(repeats):
            start = time.perf_counter()
            list(pool.map(_one_core, seed_configs(config, size)))
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def rows_of(instance: str, sizes: list[int], iterations: int, repeats: int, gpu: bool, max_lane_bytes: float):
    """The rows of one instance: GPU batches (those whose lanes fit max_lane_bytes of F and tabu memory), CPU one
    search on all cores and batches of one search per core."""
    config = search_config(instance, "cpu", iterations)
    problem = load_problem(config.problem, instance)
    n_neighbors = problem.neighborhood(config.neighborhood).n_neighbors(problem.n)
    rows = []

    def row(device: str, size: int, steps: int, seconds: float) -> dict:
        done = {"instance": instance, "problem": config.problem, "neighbors": n_neighbors, "device": device,
                "searches": size, "iterations": steps, "seconds": seconds,
                "neighbors_per_s": size * steps * n_neighbors / seconds}
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
        out.append({"instance": instance, "run": label, "iterations": budget, "seconds": statistics.median(times)})
    base = out[0]["seconds"]
    for r in out:
        r["x one vector"] = r["seconds"] / base
    return out


def tables(instances: list[str], sizes: list[int], iterations: int, repeats: int, gpu: bool,
           max_lane_bytes: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = [r for instance in instances for r in rows_of(instance, sizes, iterations, repeats, gpu, max_lane_bytes)]
    df = pd.DataFrame(rows)
    one = df[df.searches == 1].groupby(["instance", "device"]).neighbors_per_s.first()
    df["x one search"] = [r.neighbors_per_s / one.get((r.instance, r.device), float("nan")) for r in df.itertuples()]
    vectors = [r for instance in instances if CASES.get(instance, "flowshop") == "flowshop"
               for r in vectors_rows(instance, iterations, repeats)] if gpu else []
    return df, pd.DataFrame(vectors)


def write_report(df: pd.DataFrame, vectors: pd.DataFrame, folder: Path) -> Path:
    """folder/batch.md, batch.csv and vectors.csv; returns the .md."""
    from mols.environment import environment

    try:
        folder.mkdir(parents=True, exist_ok=True)
        df.to_csv(folder / "batch.csv", index=False)
        vectors.to_csv(folder / "vectors.csv", index=False)
        md = folder / "batch.md"
        md.write_text(render(df, vectors, environment()))
    except OSError as err:
        raise MolsError(f"--output {folder}: {err.strerror}") from None
    return md


def render(df: pd.DataFrame, vectors: pd.DataFrame, env: dict) -> str:
    parts = ["# Batches of tabu searches sharing each launch (`mols bench batch`)\n", markdown_list(env) + "\n",
             ("Neighbors per second of B searches together (each `iterations` steps); `x one search`: against one "
              "search on the same device.\n"), markdown_table(df.round(4).to_dict("records")) + "\n"]
    if len(vectors):
        parts += [("Aggregated tabu search: its 10 weight vectors side by side (lanes) and one after another, "
                   "against one vector alone with the same steps per vector.\n"),
                  markdown_table(vectors.round(4).to_dict("records")) + "\n"]
    return "\n".join(parts)
