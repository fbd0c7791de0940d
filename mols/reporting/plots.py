"""PNG figures: fronts projected on pairs of objectives, profile splits, speed-up against size, attainment
surfaces and EAF differences, convergence curves and runtime distributions."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.collections import PatchCollection
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from mols.reporting.attainment import LEVELS, InstanceEAF, levels
from mols.reporting.convergence import Curves, Runtimes
from mols.reporting.runs import Run, group_label
from mols.reporting.tables import PARTS

MARKERS = "os^Dv<>PX*"


def _save(fig, path: Path) -> Path:
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_fronts(name: str, runs: list[Run], reference: np.ndarray, path: Path) -> Path:
    """Every run of one report group (`name`: its label) overlaid, one panel per pair of objectives; one
    colour and marker per algorithm and backend (seeds share them), the reference set in grey below."""
    objectives = runs[0].objectives
    pairs = list(combinations(range(len(objectives)), 2))
    fig, axes = plt.subplots(1, len(pairs), figsize=(5 * len(pairs), 4.4), squeeze=False)
    labels = sorted({r.label for r in runs})
    style = {label: (f"C{i % 10}", MARKERS[i % len(MARKERS)]) for i, label in enumerate(labels)}
    for ax, (a, b) in zip(axes[0], pairs):
        ax.scatter(reference[:, a], reference[:, b], s=40, c="0.85", label="reference set", zorder=1)
        seen = set()
        for run in runs:
            colour, marker = style[run.label]
            ax.scatter(run.F[:, a], run.F[:, b], s=12, c=colour, marker=marker, alpha=0.7, zorder=2,
                       label=None if run.label in seen else run.label)
            seen.add(run.label)
        ax.set_xlabel(objectives[a])
        ax.set_ylabel(objectives[b])
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(f"{name}: fronts of {len(runs)} run(s), all objectives minimised")
    return _save(fig, path)


def plot_profile(df: pd.DataFrame, path: Path) -> Path:
    """Stacked bars of the time split (median over seeds) per group, algorithm and backend."""
    split = df.groupby(["group", "algorithm", "backend"], sort=True)[[f"{p} %" for p in PARTS]].median()
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
    """Speed-up over the 1-core CPU run per report group (ordered by neighbors per iteration), one line
    per algorithm and backend."""
    shown = speedups[speedups["backend"] != "cpu x1"]
    order = shown.groupby("group")["neighbors"].first().sort_values(kind="stable")
    position = {name: i for i, name in enumerate(order.index)}
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(order)), 4.5))
    for i, ((algorithm, backend), rows) in enumerate(shown.groupby(["algorithm", "backend"], sort=True)):
        rows = rows.assign(x=rows["group"].map(position)).sort_values("x")
        ax.plot(rows["x"], rows["speedup"], marker=MARKERS[i % len(MARKERS)],
                label=group_label(algorithm, backend))
    ax.set_xticks(range(len(order)), [f"{name}\n{int(n):,}" for name, n in order.items()], fontsize=8)
    ax.set_yscale("log")
    ax.axhline(1.0, color="0.6", lw=0.8)
    ax.set_xlabel("report group (neighbors per iteration)")
    ax.set_ylabel("speed-up over 1 CPU core (wall time)")
    ax.legend(fontsize=8)
    ax.set_title("acceleration against instance size")
    return _save(fig, path)


def _extent(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The axes' lower and upper corners around points, with a margin of 5 %."""
    lower, upper = points.min(axis=0), points.max(axis=0)
    margin = np.where(upper > lower, 0.05 * (upper - lower), 1.0)
    return lower - margin, upper + margin


def _surface(ax, surface: np.ndarray, upper: np.ndarray, **style) -> None:
    """An attainment surface (sorted by its first objective) as the staircase bounding what it attains,
    out to the axes' upper corner."""
    xs = np.concatenate([surface[:1, 0], surface[:, 0], [upper[0]]])
    ys = np.concatenate([[upper[1]], surface[:, 1], surface[-1:, 1]])
    ax.plot(xs, ys, drawstyle="steps-post", **style)


def _grid(n: int, width: float = 4.6, height: float = 4.2):
    cols = min(n, 3)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, axes.flat


def plot_attainment(name: str, eaf: InstanceEAF, path: Path) -> Path:
    """One panel per algorithm and backend: its best, median and worst attainment surfaces over seeds."""
    lower, upper = _extent(eaf.points)
    fig, axes = _grid(len(eaf.surfaces))
    for i, (ax, (label, surfaces)) in enumerate(zip(axes, eaf.surfaces.items())):
        attained_by = levels(eaf.runs[label])
        for level, line in zip(LEVELS, ("--", "-", ":")):
            _surface(ax, surfaces[level], upper, color=f"C{i % 10}", linestyle=line,
                     label=f"{level}: attained by {attained_by[level]} of {eaf.runs[label]}")
        ax.set(xlim=(lower[0], upper[0]), ylim=(lower[1], upper[1]), xlabel=eaf.objectives[0],
               ylabel=eaf.objectives[1])
        ax.set_title(label, fontsize=9)
        ax.legend(fontsize=7, loc="upper right")
    fig.suptitle(f"{name}: attainment surfaces over seeds, all objectives minimised")
    return _save(fig, path)


def plot_eaf_difference(name: str, eaf: InstanceEAF, pair: tuple[str, str], path: Path) -> Path:
    """Two panels: where the runs of the pair's first group attain points more often than those of the
    second (left), and the reverse (right), shaded by the difference in the fraction of runs; both
    groups' median attainment surfaces drawn over them."""
    lower, upper = _extent(eaf.points)
    rectangles = eaf.differences[pair]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6), sharey=True, layout="constrained")
    for ax, sign, (better, worse) in zip(axes, (1, -1), (pair, pair[::-1])):
        shown = rectangles[sign * rectangles[:, -1] > 0]
        corners = np.minimum(shown[:, :4], np.tile(upper, 2))  # an unbounded rectangle ends at the axes
        patches = [Rectangle((x0, y0), x1 - x0, y1 - y0) for x0, y0, x1, y1 in corners]
        shading = ax.add_collection(PatchCollection(patches, cmap="Blues", norm=Normalize(0, 1), linewidth=0))
        shading.set_array(sign * shown[:, -1])
        for label, line in zip(pair, ("-", "--")):
            _surface(ax, eaf.surfaces[label]["median"], upper, color="black", linestyle=line,
                     label=f"{label}: median")
        ax.set(xlim=(lower[0], upper[0]), ylim=(lower[1], upper[1]), xlabel=eaf.objectives[0])
        ax.set_title(f"{better}\nattains more often than\n{worse}", fontsize=8)
        ax.legend(fontsize=7, loc="upper right")
    axes[0].set_ylabel(eaf.objectives[1])
    fig.colorbar(shading, ax=axes, label="difference in the fraction of runs attaining")
    fig.suptitle(f"{name}: EAF differences over {eaf.runs[pair[0]]} runs each, all objectives minimised")
    return _save(fig, path)


def plot_convergence(name: str, curves: Curves, path: Path) -> Path:
    """One line per algorithm and backend: the median over its runs of the trace's measure (hypervolume, or best
    value) against seconds on a log axis, in a band from the first to the third quartile."""
    fig, ax = plt.subplots(figsize=(7, 4.6))
    for i, (label, (times, median, q1, q3)) in enumerate(curves.curves.items()):
        ax.fill_between(times, q1, q3, color=f"C{i % 10}", alpha=0.2, linewidth=0, step="post")
        ax.plot(times, median, color=f"C{i % 10}", drawstyle="steps-post",
                label=f"{label} (median of {curves.runs[label]} runs)")
    ax.set_xscale("log")
    ax.set_xlabel("seconds of search")
    higher = "higher" if curves.measure == "hypervolume" else "lower"
    ax.set_ylabel(f"{curves.measure.replace('_', ' ')} ({higher} is better)")
    ax.legend(fontsize=8, loc="best")
    ax.set_title(f"{name}: convergence, median and interquartile range over seeds", fontsize=10)
    return _save(fig, path)


def plot_runtimes(name: str, runtimes: Runtimes, path: Path) -> Path:
    """One step line per algorithm and backend: the fraction of its runs that had reached the target by each time
    (log axis)."""
    fig, ax = plt.subplots(figsize=(7, 4.6))
    reached = np.concatenate(list(runtimes.reached.values()))
    reached = reached if len(reached) else np.ones(1)  # no run reached it: an axis around 1 s
    first, last = reached.min() / 1.5, reached.max() * 1.5
    for i, (label, times) in enumerate(runtimes.reached.items()):
        total = runtimes.runs[label]
        xs = np.concatenate([[first], times, [last]])
        ys = np.concatenate([[0], np.arange(1, len(times) + 1), [len(times)]]) / total
        ax.step(xs, ys, where="post", color=f"C{i % 10}", label=f"{label} ({len(times)} of {total} runs reached it)")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("seconds of search")
    ax.set_ylabel(f"fraction of runs at or below {runtimes.target:g}")
    ax.legend(fontsize=8, loc="best")
    ax.set_title(f"{name}: runtime distribution to the target {runtimes.target:g}", fontsize=10)
    return _save(fig, path)
