"""`mols bench natural-end`: PLS-1 run to its natural end (`restarts=0`, ParadisEO's moeoPLS1) on the flowshop
paper's instances, PLS-≠ and PLS-√, on the CPU and the GPU: medians over seeds of iterations, front size, time (and
its range over the runs)."""

from __future__ import annotations

import statistics
from pathlib import Path

import pandas as pd

from mols.bench.common import FSP_SIZES, Spread, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.runner import RunConfig, solve

VARIANTS = {"nondominated": "PLS-≠", "dominating": "PLS-√"}
# RunConfig fields every run takes besides its instance, variant, backend, seed and cap: the one place to set
# the objectives, e.g. {"objectives": ("makespan", "tardiness")} for the bi-objective flowshop.
RUN_FIELDS: dict = {"objectives": ("makespan", "tardiness")}  # the bi-objective flowshop, as ParadisEO's
CAP = 100_000  # iterations at most per run


def run_config(size: str, variant: str, backend: str, seed: int, cap: int) -> RunConfig:
    return RunConfig(FSP_SIZES[size], algorithm="pls", variant=variant, backend=backend, seed=seed, restarts=0,
                     iterations=cap, **RUN_FIELDS)


def row(size: str, variant: str, backend: str, seeds: int, repeats: int, cap: int) -> dict:
    """The medians over seeds of one configuration, the times' over every run with their range
    (docs/internals.md)."""
    iterations, fronts, seconds, per_iteration, natural = [], [], [], [], 0
    for seed in range(seeds):
        results = [solve(run_config(size, variant, backend, seed, cap)) for _ in range(repeats)]
        iterations.append(results[0].iterations)
        fronts.append(len(results[0].archive))
        seconds += [r.wall_seconds for r in results]
        per_iteration += [1e3 * r.wall_seconds / r.iterations for r in results]
        natural += results[0].ended_by == "natural end"
    done = {"size": size, "instance": FSP_SIZES[size], "neighbors": results[0].n_neighbors, "variant": variant,
            "backend": backend, "seeds": seeds, "repeats": repeats, "natural ends": natural,
            "iterations": statistics.median(iterations), "front": statistics.median(fronts),
            **Spread.of(seconds).columns("seconds"), **Spread.of(per_iteration).columns("ms_per_iteration")}
    print(done, flush=True)  # as it comes: a long benchmark shows its progress
    return done


def run(sizes: list[str], variants: list[str], backends: list[str], seeds: int, repeats: int, cap: int,
        on_row=lambda row: None) -> pd.DataFrame:
    """One row per size, variant and backend; on_row(it) as each ends."""
    rows = []
    for size in sizes:
        for variant in variants:
            for backend in backends:
                rows.append(row(size, variant, backend, seeds, repeats, cap))
                on_row(rows[-1])
    return pd.DataFrame(rows)


def write_report(df: pd.DataFrame, folder: Path, cap: int) -> tuple[Path, Path]:
    """folder/natural-end.md and .csv."""
    return write_report_files(df, folder, "natural-end", lambda df, env: render(df, env, cap))


def render(df: pd.DataFrame, env: dict, cap: int) -> str:
    fields = ", ".join(f"{key}={value!r}" for key, value in RUN_FIELDS.items()) or "none"
    rows = [{"size": r["size"], "neighbors": f"{r['neighbors']:,}", "variant": VARIANTS[r["variant"]],
             "backend": r["backend"], "natural ends": f"{r['natural ends']}/{r['seeds']}",
             "iterations": f"{r['iterations']:g}", "front": f"{r['front']:g}",
             "seconds": Spread.read(r, "seconds").text(".3f"),
             "ms / iteration": Spread.read(r, "ms_per_iteration").text(".3f")} for r in df.to_dict("records")]
    return "\n".join([
        "# PLS-1 to its natural end (`mols bench natural-end`)\n",
        markdown_list(env) + "\n",
        (f"PLS-1 with `--restarts 0`: one start, until its archive is fully explored (at most {cap:,} iterations). "
         f"Medians over seeds of the iterations to the natural end and the front's size; the search time and the "
         f"time per iteration: the median over every run ({int(df['repeats'].iloc[0])} repeats of each seed) and "
         f"in brackets their range. RunConfig fields of every run: "
         f"{fields}.\n"),
        markdown_table(rows) + "\n",
    ])
