"""`mols bench multi-gpu`: one tabu search's neighborhood split over 1, 2 and 4 GPUs (--gpus), time per iteration
side by side with the speed-up over one GPU, and whether every count ends with one GPU's solution."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pandas as pd

from mols.bench.common import Spread, write_report_files
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.runner import RunConfig, build_search

# name -> (problem, instance, neighborhood, iterations per run): the 2009 report's §7 sizes, too large for one card
CASES = {"tsp": ("tsp", "random:100000:1", "2opt", 30), "ppp": ("ppp", "1301-1317", "hamming3", 5)}
SMALL = {"tsp": ("tsp", "random:2000:1", "2opt", 20), "ppp": ("ppp", "101-117", "hamming3", 5)}  # a smoke run


def run_once(case: tuple, gpus: int, iterations: int | None, seed: int) -> tuple[float, object, dict]:
    """One tabu search on `gpus` GPUs: its seconds per iteration (warm-up excluded), its best solution, and what it
    ran on."""
    problem, instance, neighborhood, default = case
    gc.collect()  # the last run's evaluators (cycles through their companions) and their tabu memory, 20 GB a device
    search = build_search(RunConfig(instance, problem=problem, algorithm="tabu", neighborhood=neighborhood,
                                    iterations=iterations or default, seed=seed, backend="gpu", gpus=gpus))
    result = search.run()
    if result.status != "completed":
        raise MolsError(f"tabu search on {instance} with {gpus} GPU(s) {result.status}: {result.error}")
    best = int(np.argmin(result.archive.F[:, 0]))
    return result.wall_seconds / result.iterations, result.archive.X[best].copy(), {
        "instance": instance, "neighborhood": neighborhood, "neighbors": result.n_neighbors,
        "iterations": result.iterations, "device": search.evaluator.device}


def row(name: str, case: tuple, gpus: int, repeats: int, iterations: int | None, baseline: dict | None) -> dict:
    """`repeats` runs of the same search on `gpus` GPUs: ms per iteration (median and range), the speed-up over
    `baseline` (one GPU's row) and whether each run ended with its solution."""
    times, solutions = [], []
    for _ in range(repeats):
        seconds, x, about = run_once(case, gpus, iterations, seed=0)
        times.append(seconds)
        solutions.append(x)
    ms = Spread.of(times) * 1e3
    done = {"case": name, **about, "gpus": gpus, "repeats": repeats, **ms.columns("ms_per_iteration"),
            "solution": solutions[0]}
    reference = solutions[0] if baseline is None else baseline["solution"]
    done["same_solution"] = all(np.array_equal(x, reference) for x in solutions)
    one = ms if baseline is None else Spread.read(baseline, "ms_per_iteration")
    done |= one.over(ms).columns("speedup")
    print({k: v for k, v in done.items() if k != "solution"}, flush=True)  # as it comes
    return done


def run(names: list[str], counts: list[int], repeats: int, iterations: int | None, small: bool = False,
        on_row=lambda row: None) -> pd.DataFrame:
    """Each case on each GPU count, one GPU first (the baseline of the speed-ups and solutions); on_row(each row)."""
    from mols.backends.split import visible_gpus

    visible, rows = visible_gpus(), []
    counts = sorted({1, *counts})
    if max(counts) > visible:
        raise MolsError(f"--gpus: {max(counts)} asked for; CUDA sees {visible} GPU(s) here")
    for name in names:
        baseline = None
        for gpus in counts:
            rows.append(row(name, (SMALL if small else CASES)[name], gpus, repeats, iterations, baseline))
            baseline = baseline or rows[-1]
            on_row(rows[-1])
    return table(rows)


def table(rows: list[dict]) -> pd.DataFrame:
    """The rows as the report's table (each row's solution, compared with one GPU's, left out)."""
    return pd.DataFrame(rows).drop(columns="solution")


def write_report(df: pd.DataFrame, folder: Path) -> tuple[Path, Path]:
    """folder/multi-gpu.md and .csv."""
    return write_report_files(df, folder, "multi-gpu", render)


def render(df: pd.DataFrame, env: dict) -> str:
    rows = [{"case": r["case"], "instance": r["instance"], "moves": r["neighborhood"],
             "neighbors": f"{r['neighbors']:,}",
             "GPUs": r["gpus"], "iterations": r["iterations"],
             "ms per iteration": Spread.read(r, "ms_per_iteration").text(".4g"),
             "speed-up over 1 GPU": Spread.read(r, "speedup").text(".3g", " x"),
             "one GPU's solution": "yes" if r["same_solution"] else "NO"} for r in df.to_dict("records")]
    return "\n".join([
        "# One neighborhood split over several GPUs (--gpus)", "",
        ("Tabu search (one objective, seed 0), each GPU count in the same process, one GPU first. Time per iteration "
        "is the search's wall clock over its iterations, warm-up (compilation, the first graphs) excluded: median "
        "(range) over the repeats. The speed-up is one GPU's median over this count's (its range: the extreme "
        "ratios). One GPU walks on the device where the problem applies moves there (TSP); several GPUs walk from "
        "the host, each evaluating a contiguous share of the ids and reducing it to its best pairs, combined on the "
        "host. Every count must end with one GPU's solution."), "",
        markdown_table(rows), "",
        markdown_list({"devices": "; ".join(sorted(set(df["device"]))), **env}), ""])
