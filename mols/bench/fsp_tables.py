"""`mols bench fsp`, the tables: built from the results folders under OUT/runs alone (see fsp.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mols.bench.common import FSP_SIZES, Spread
from mols.bench.common import write_tables as write_frames
from mols.markdown import markdown_list, markdown_table
from mols.reporting import Report, write_report
from mols.reporting.tables import PARTS

PAPER_TABLE = {"tabu": 2, "pls-dominating": 3, "pls-nondominated": 4}


def write_tables(out: Path, folders: list[Path]) -> tuple[Path, Report]:
    """The report over the runs' folders (plots, CSV) into OUT, and the paper's tables into OUT/fsp.md and
    OUT/fsp.csv (paper_frame)."""
    report = write_report(folders, out)
    med = paper_frame(report)
    return write_frames(out, {"fsp.csv": med}, ("fsp.md", render_markdown(report, med))), report


def paper_frame(report: Report) -> pd.DataFrame:
    """One row per size, algorithm and backend: the time over seeds (wall_s, _min, _max), its acceleration over 1
    core (speedup, _min, _max: Spread.over), medians of the number of solutions and the hypervolume."""
    df = report.runs.copy()
    df["size"] = df["instance"].map({v: k for k, v in FSP_SIZES.items()})
    med = df.groupby(["size", "group", "algorithm", "backend"]).agg(
        wall_s=("wall_s", "median"), wall_s_min=("wall_s", "min"), wall_s_max=("wall_s", "max"),
        neighbors=("neighbors", "first"), iterations=("iterations", "median"),
        solutions=("n_solutions", "median"), hv=("hv", "median"),
        **{part: (f"{part} %", "median") for part in PARTS}).reset_index()
    one_core = {(r["group"], r["algorithm"]): Spread.read(r, "wall_s")
                for r in med.to_dict("records") if r["backend"] == "cpu x1"}
    speedups = [one_core[(r["group"], r["algorithm"])].over(Spread.read(r, "wall_s")).columns("speedup")
                if (r["group"], r["algorithm"]) in one_core else Spread.of(()).columns("speedup")
                for r in med.to_dict("records")]
    return pd.concat([med, pd.DataFrame(speedups, index=med.index)], axis=1)


def render_markdown(report: Report, med: pd.DataFrame) -> str:
    first = report.loaded[0].manifest
    env = markdown_list(first.get("environment", {}))
    budgets = sorted(report.runs["budget"].unique())
    parts = [
        "# The flowshop paper's Tables 2-5 on this machine\n",
        ("Made by `mols bench fsp`. Each cell is one search on the bundled instance of that size, with the "
        f"same budget ({', '.join(map(str, budgets))} neighborhood evaluations) and seed on every backend; "
        "times are wall seconds of the search (compilation excluded), the median over seeds and in brackets the "
        "fastest and slowest seed; ×a is the acceleration over the Numba backend on 1 core, measured in the same "
        "benchmark: the medians' ratio, in brackets the ratios of the ranges' ends. "
        "HV: hypervolume in the normalised space of the size's reference set (the union of all its fronts), "
        "at most 1.1^k (1.331 for three objectives). Runs (front.csv, run.json) are under runs/; report.md has "
        "every indicator.\n"),
        env + "\n",
    ]
    for alg, table in PAPER_TABLE.items():
        rows = _time_rows(med[med["algorithm"] == alg])
        if rows:
            parts += [f"## Table {table}: {alg}\n", markdown_table(rows) + "\n"]
    rows = _profile_rows(med)
    if rows:
        parts += ["## Table 5: profile split (% of wall time)\n", markdown_table(rows) + "\n"]
    return "\n".join(parts)


def _order(med: pd.DataFrame) -> list[str]:
    return [s for s in FSP_SIZES if s in set(med["size"])]


def _time_rows(med: pd.DataFrame) -> list[dict[str, str]]:
    rows = []
    for size in _order(med):
        cells = med[med["size"] == size].set_index("backend")
        row = {"size": size, "neighbors": f"{int(cells['neighbors'].iloc[0]):,}"}
        for backend in sorted(cells.index, key=_backend_order):
            c = cells.loc[backend].to_dict()
            acc = "" if backend == "cpu x1" or pd.isna(c["speedup"]) else f" ×{Spread.read(c, 'speedup').text('.1f')}"
            row[f"{backend} s"] = Spread.read(c, "wall_s").text(".1f" if c["wall_s"] >= 10 else ".3g") + acc
        shown = cells.loc[min(cells.index, key=_quality_order)]
        row |= {"# solutions": f"{shown['solutions']:.0f}", "HV": f"{shown['hv']:.3f}"}
        rows.append(row)
    return _same_keys(rows)


def _profile_rows(med: pd.DataFrame) -> list[dict[str, str]]:
    """Each size and algorithm's split on the fastest backend measured (the GPU where there is one)."""
    rows = []
    for size in _order(med):
        for alg in PAPER_TABLE:
            cells = med[(med["size"] == size) & (med["algorithm"] == alg)]
            if len(cells):
                c = cells.loc[cells["backend"].map(_quality_order).idxmin()]
                rows.append({"size": size, "algorithm": alg, "backend": c["backend"],
                             **{part: f"{c[part]:.1f}" for part in PARTS}})
    return rows


def _same_keys(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    keys = list(dict.fromkeys(k for row in rows for k in row))
    return [{k: row.get(k, "") for k in keys} for row in rows]


def _backend_order(backend: str) -> tuple[int, str]:
    return (0 if backend == "cpu x1" else 2 if backend.startswith("gpu") else 1, backend)


def _quality_order(backend: str) -> int:
    return -_backend_order(backend)[0]
