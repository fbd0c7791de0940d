"""pandas tables over runs: one row per run with its indicators and group, aggregates over seeds, speed-ups."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.markdown import markdown_table, number_text
from mols.problems import gap_percent, known_best
from mols.reporting.groups import Group, budget
from mols.reporting.indicators import INDICATORS, indicators
from mols.reporting.runs import Run

PARTS = ("evaluation", "archiving", "ls process")
GROUP = ["group", "instance", "algorithm", "backend"]
METRICS = ["n_solutions", *INDICATORS, "best", "gap %", "wall_s", "ms_per_iteration", "evaluations",
           *(f"{p} %" for p in PARTS)]


def run_row(run: Run, group: Group, reference: np.ndarray) -> dict:
    m = run.manifest
    iterations = int(m["iterations"])
    row = {"group": group.label, "instance": group.instance, "problem": run.problem,
           "objectives": "+".join(run.objectives), "algorithm": run.algorithm, "backend": run.backend, "seed": run.seed,
           "device": m.get("device", ""), "status": m["status"], "budget": budget(m["config"]),
           "iterations": iterations, "neighbors": m.get("neighbors_per_iteration", np.nan),
           "evaluations": m.get("evaluated_neighbors", np.nan), "wall_s": float(m["wall_seconds"]),
           "ms_per_iteration": 1e3 * float(m["wall_seconds"]) / iterations if iterations else np.nan,
           "n_solutions": len(run.F), **indicators(run.F, reference)}
    row |= {f"{part} %": float(m["profile"].get(part, {}).get("percent", np.nan)) for part in PARTS}
    return row | best_values(run) | {"folder": str(run.folder)}


def best_values(run: Run) -> dict:
    """A one-objective run's best value and its gap in % to the instance's best-known value (NaN where there is
    none, or several objectives)."""
    if run.F.shape[1] != 1:
        return {"best": np.nan, "gap %": np.nan}
    best = float(run.F[:, 0].min())
    known = known_best(run.problem, run.manifest["config"]["instance"])  # the name as given: a path has none
    return {"best": best, "gap %": np.nan if known is None else gap_percent(best, known)}


def runs_table(groups: list[Group], references: dict[str, np.ndarray]) -> pd.DataFrame:
    return pd.DataFrame([run_row(run, group, references[group.label]) for group in groups for run in group.runs])


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean, std and median over seeds of every metric, per group, algorithm and backend."""
    grouped = df.groupby(GROUP, sort=True)
    out = grouped[METRICS].agg(["mean", "std", "median"])
    out.columns = [f"{metric} {stat}" for metric, stat in out.columns]
    out.insert(0, "runs", grouped.size())
    return out.reset_index()


def speedup_table(df: pd.DataFrame) -> pd.DataFrame:
    """Each run's wall time against the 1-core CPU run of the same group (problem, instance, objectives and
    budget), algorithm and seed; medians over seeds. Empty without 1-core runs."""
    key = ["group", "algorithm", "seed"]
    base = df[df["backend"] == "cpu x1"].set_index(key)["wall_s"].rename("cpu_1core_s")
    paired = df.join(base, on=key, how="inner")
    if paired.empty:
        return pd.DataFrame(columns=[*GROUP, "budget", "neighbors", "wall_s", "speedup"])
    paired["speedup"] = paired["cpu_1core_s"] / paired["wall_s"]
    cols = {"neighbors": "first", "wall_s": "median", "speedup": "median"}
    return paired.groupby([*GROUP, "budget"], sort=False).agg(cols).reset_index()


def frame_markdown(df: pd.DataFrame, digits: int = 4) -> str:
    """df as a Markdown table, floats to `digits` significant digits."""
    rows = [{col: number_text(v, digits) for col, v in zip(df.columns, rec)} for rec in df.itertuples(index=False)]
    return markdown_table(rows) if rows else "(no rows)"
