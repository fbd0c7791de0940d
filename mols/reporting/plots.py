"""PNG figures: fronts projected on pairs of objectives, profile splits, speed-up against size."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from mols.reporting.runs import Run
from mols.reporting.tables import PARTS

MARKERS = "os^Dv<>PX*"


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_fronts(runs: list[Run], reference: np.ndarray, path: Path) -> Path:
    """Every run of one instance overlaid, one panel per pair of objectives; one colour and marker
    per algorithm and backend (seeds share them), the reference set in grey below."""
    objectives = runs[0].objectives
    pairs = list(combinations(range(len(objectives)), 2))
    fig, axes = plt.subplots(1, len(pairs), figsize=(5 * len(pairs), 4.4), squeeze=False)
    labels = sorted({f"{r.algorithm} · {r.backend}" for r in runs})
    style = {label: (f"C{i % 10}", MARKERS[i % len(MARKERS)]) for i, label in enumerate(labels)}
    for ax, (a, b) in zip(axes[0], pairs):
        ax.scatter(reference[:, a], reference[:, b], s=40, c="0.85", label="reference set", zorder=1)
        seen = set()
        for run in runs:
            label = f"{run.algorithm} · {run.backend}"
            colour, marker = style[label]
            ax.scatter(run.F[:, a], run.F[:, b], s=12, c=colour, marker=marker, alpha=0.7, zorder=2,
                       label=None if label in seen else label)
            seen.add(label)
        ax.set_xlabel(objectives[a])
        ax.set_ylabel(objectives[b])
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(f"{runs[0].instance}: fronts of {len(runs)} run(s), all objectives minimised")
    return _save(fig, path)


def plot_profile(df: pd.DataFrame, path: Path) -> Path:
    """Stacked bars of the time split (median over seeds) per instance, algorithm and backend."""
    split = df.groupby(["instance", "algorithm", "backend"], sort=True)[[f"{p} %" for p in PARTS]].median()
    labels = [" · ".join(key) for key in split.index]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(labels) + 1.5))
    left = np.zeros(len(labels))
    for i, part in enumerate(PARTS):
        values = split[f"{part} %"].fillna(0).to_numpy()
        ax.barh(labels, values, left=left, color=f"C{i}", label=part)
        left += values
    ax.set_xlabel("share of wall time (%)")
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize=8,
              title="share of wall time, median over seeds")
    return _save(fig, path)


def plot_speedup(speedups: pd.DataFrame, path: Path) -> Path:
    """Speed-up over the 1-core CPU run per instance (ordered by neighbors per iteration), one line
    per algorithm and backend."""
    shown = speedups[speedups["backend"] != "cpu x1"]
    order = shown.groupby("instance")["neighbors"].first().sort_values(kind="stable")
    position = {name: i for i, name in enumerate(order.index)}
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(order)), 4.5))
    for i, ((algorithm, backend), rows) in enumerate(shown.groupby(["algorithm", "backend"], sort=True)):
        rows = rows.assign(x=rows["instance"].map(position)).sort_values("x")
        ax.plot(rows["x"], rows["speedup"], marker=MARKERS[i % len(MARKERS)], label=f"{algorithm} · {backend}")
    ax.set_xticks(range(len(order)), [f"{name}\n{int(n):,}" for name, n in order.items()], fontsize=8)
    ax.set_yscale("log")
    ax.axhline(1.0, color="0.6", lw=0.8)
    ax.set_xlabel("instance (neighbors per iteration)")
    ax.set_ylabel("speed-up over 1 CPU core (wall time)")
    ax.legend(fontsize=8)
    ax.set_title("acceleration against instance size")
    return _save(fig, path)
