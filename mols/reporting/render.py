"""report.md: how to read it, the table of groups, notes on the groups that could not be compared, and one section
per group (summary, reference set, time profile, speed-ups, rank tests, attainment plots, convergence and runtime
distributions); the plots' file names."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from mols.reporting.attainment import InstanceEAF
from mols.reporting.indicators import HV_POINT, bounds
from mols.reporting.ranktest import ALPHA
from mols.reporting.tables import PARTS, frame_markdown
from mols.results import safe_name

if TYPE_CHECKING:
    from mols.reporting.groups import Group
    from mols.reporting.report import Report

INTRO = (
    "Made by `mols report`. Runs are grouped by what they are: the problem, the instance (its content's SHA-256 "
    "as run.json records it, else, for older runs, its name), the objectives optimised and the budget (iterations, "
    "evaluations, time, target, restarts). Each group below has its own reference set and rows, per algorithm "
    "and backend over seeds; runs of two groups are never compared. Indicators are computed in each group's "
    "normalised space: the reference set's ideal point maps to 0 and its nadir point to 1 on every objective. "
    "The reference set of a group is the non-dominated union of the fronts of its runs, and of its instance's "
    "published exact front where there is one and the runs optimised all its objectives (the KC10 mQAP "
    f"instances' .PO files). HV is the hypervolume up to ({HV_POINT}, ..., {HV_POINT}), higher is better; IGD, "
    "IGD+, GD, GD+ and the additive epsilon (eps+) are distances to the reference set, lower is better. "
    "Values are the mean over seeds; times are medians.")
RANK_TESTS = (
    "Rank tests: for each group and each pair of algorithm and backend A and B in it, the two-sided Mann-Whitney "
    "U test on the hypervolumes of their runs (one per seed). It is unpaired, not Wilcoxon's signed-rank test, "
    "because a seed does not pair runs of two algorithms up: each draws its own start from it. A12 is the "
    "probability that a run of A has a higher hypervolume than a run of B (0.5: no difference); `better` "
    f"names the side with the higher hypervolumes where p < {ALPHA} (per pair, not corrected for the "
    "number of pairs; with 3 runs a side, p cannot go below 0.1).")
ATTAINMENT = (
    "Attainment surfaces (bi-objective groups): over the k runs (seeds) of an algorithm and backend, the t-th "
    "attainment surface bounds the points that at least t of the k fronts weakly dominate: the best surface is "
    "t = 1, the median t = ceil(k/2) and the worst t = k (moocore's EAF). An EAF difference shades where the runs "
    "of one side attain points more often than those of the other, by the difference in the fraction of runs; "
    "it is drawn for pairs with as many runs on each side (moocore's eafdiff compares equal numbers).")


def fronts_png(label: str) -> str:
    return f"fronts-{label}.png"


def attainment_png(label: str) -> str:
    return f"eaf-{label}.png"


def difference_png(label: str, pair: tuple[str, str]) -> str:
    return f"eafdiff-{label}-{safe_name(pair[0])}-vs-{safe_name(pair[1])}.png"


def convergence_png(label: str) -> str:
    return f"convergence-{label}.png"


def runtimes_png(label: str) -> str:
    return f"runtimes-{label}.png"


def render_markdown(report: Report) -> str:
    parts = ["# Report\n", INTRO + "\n"]
    parts += [RANK_TESTS + "\n"] if not report.rank_tests.empty else []
    parts += [ATTAINMENT + "\n"] if report.eafs else []
    parts += ["## Groups\n", frame_markdown(pd.DataFrame([group.summary() for group in report.groups])) + "\n"]
    if report.notes:
        parts += ["## Groups not compared, or kept apart\n", "\n".join(f"- {n}" for n in report.notes) + "\n"]
    for group in report.groups:
        parts += group_markdown(report, group)
    if report.errors or report.skipped:
        parts += ["## Folders left out\n", "\n".join(f"- {e}" for e in report.errors + report.skipped) + "\n"]
    return "\n".join(parts)


def _of(df: pd.DataFrame, label: str, columns: list[str] | None = None) -> pd.DataFrame:
    """df's rows of the group, without the columns that the group's heading says (or with `columns` alone)."""
    rows = df[df["group"] == label]
    return rows[columns] if columns else rows.drop(columns=[c for c in ("group", "instance") if c in df])


def group_markdown(report: Report, group: Group) -> list[str]:
    """The group's section: what its runs share, then its tables and plots."""
    label, ref = group.label, report.references[group.label]
    ideal, nadir = bounds(ref)
    profile = _of(report.summary, label, ["algorithm", "backend", *[f"{p} % median" for p in PARTS]])
    parts = [f"## {label}\n", group.describe() + ".\n", "### Summary\n",
             frame_markdown(_of(report.compact(label), label)) + "\n",
             f"Reference set: {len(ref)} points, ideal {_vector(ideal)}, nadir {_vector(nadir)}.\n",
             "### Time profile (% of wall time, median over seeds)\n", frame_markdown(profile) + "\n"]
    speedups, tests = _of(report.speedups, label), _of(report.rank_tests, label)
    if not speedups.empty:
        parts += ["### Speed-up over 1 CPU core (same group and seed)\n", frame_markdown(speedups) + "\n"]
    if not tests.empty:
        parts += ["### Hypervolume rank tests over seeds\n", frame_markdown(tests) + "\n"]
    if label in report.eafs:
        parts += ["### Attainment surfaces\n", eaf_markdown(label, report.eafs[label])]
    if label in report.curves:
        parts += ["### Anytime behaviour\n", anytime_markdown(report, label)]
    return parts


def anytime_markdown(report: Report, label: str) -> str:
    """The group's convergence plot and runtime distribution, each with a line saying what it shows."""
    curves = report.curves[label]
    what = ("hypervolume against the reference point in each run.json (`trace.reference_point`, fixed for the "
            "instance; higher is better)" if curves.measure == "hypervolume" else
            f"best {curves.measure.removeprefix('best_')} found (lower is better)")
    without = f"; {curves.without} run(s) without trace.csv (older folders) left out" if curves.without else ""
    lines = [f"![convergence of {label}]({convergence_png(label)})\n",
             (f"Convergence: for each algorithm and backend, the median over seeds (line) and the interquartile "
              f"range (band) of the {what}, against seconds of search on a log axis, from each run's trace.csv"
              f"{without}.\n")]
    if label in report.runtimes:
        target = report.runtimes[label].target
        lines += [f"![runtime distribution of {label}]({runtimes_png(label)})\n",
                  (f"Runtime distribution: for each algorithm and backend, the fraction of its runs whose best value "
                   f"was at or below the target {target:g} by each time (seconds of search, log axis), from the "
                   "traces.\n")]
    return "\n".join(lines)


def eaf_markdown(label: str, eaf: InstanceEAF) -> str:
    """The group's attainment plots, and each pair's EAF difference or why it is not drawn."""
    lines = [f"![attainment surfaces of {label}]({attainment_png(label)})\n"]
    for (a, b), rectangles in eaf.differences.items():
        lines.append(f"![EAF difference: {a} against {b}]({difference_png(label, (a, b))})\n"
                     if rectangles is not None else
                     f"- {a} against {b}: no EAF difference ({eaf.runs[a]} runs against {eaf.runs[b]})\n")
    return "\n".join(lines)


def _vector(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:g}" for x in v) + ")"
