"""Anytime results from the runs' traces (trace.csv): convergence curves over seeds (median and interquartile band of
the hypervolume, or of the best value, against seconds) and runtime distributions to a target (one objective)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from mols.reporting.groups import Group
from mols.reporting.runs import Run

POINTS = 200  # the curves' times, log-spaced


@dataclass
class Curves:
    """A group's convergence: per algorithm and backend, times and the median, first and third quartiles over its
    runs of `measure` (a trace.csv column), and how many runs it pools; `without`: runs left out (no trace.csv)."""

    measure: str
    curves: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
    runs: dict[str, int]
    without: int = 0


@dataclass
class Runtimes:
    """A single-objective group's runtime distribution to its target: per algorithm and backend, the sorted seconds
    at which its runs' traces first held a value at or below the target, and how many runs it has (those that
    never reached it count in the total only)."""

    target: float
    reached: dict[str, np.ndarray]
    runs: dict[str, int] = field(default_factory=dict)


def traced(group: Group) -> dict[str, list[Run]]:
    """The group's runs that have a trace, by algorithm and backend."""
    by_label: dict[str, list[Run]] = {}
    for run in group.runs:
        if run.trace is not None and len(run.trace):
            by_label.setdefault(run.label, []).append(run)
    return dict(sorted(by_label.items()))


def measure_of(group: Group) -> str:
    """What a group's curves show: the hypervolume with several objectives, else the best value."""
    objectives = group.key.objectives
    return "hypervolume" if len(objectives) > 1 else f"best_{objectives[0]}"


def value_at(run: Run, measure: str, times: np.ndarray) -> np.ndarray:
    """The run's `measure` at each time: that of its last row at or before it (NaN before its first row)."""
    seconds, values = run.trace["seconds"].to_numpy(float), run.trace[measure].to_numpy(float)
    rows = np.searchsorted(seconds, times, side="right") - 1
    return np.where(rows >= 0, values[np.maximum(rows, 0)], np.nan)


def convergence(group: Group) -> Curves | None:
    """The group's convergence curves, from the runs with a trace.csv (None where none has one). Times run
    log-spaced from the moment every run of the algorithm and backend has its first row to the last run's end;
    a run that has ended keeps its last value."""
    by_label, measure = traced(group), measure_of(group)
    if not by_label:
        return None
    curves = {}
    for label, runs in by_label.items():
        start = max(max(float(r.trace["seconds"].iloc[0]) for r in runs), 1e-6)
        end = max(max(float(r.trace["seconds"].iloc[-1]) for r in runs), start)
        times = np.geomspace(start, end, POINTS) if end > start else np.array([start])
        values = np.array([value_at(run, measure, times) for run in runs])
        with warnings.catch_warnings():  # a time at which no run has a value yet (an empty archive) stays NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            q1, median, q3 = np.nanpercentile(values, [25, 50, 75], axis=0)
        curves[label] = (times, median, q1, q3)
    without = len(group.runs) - sum(len(runs) for runs in by_label.values())
    return Curves(measure, curves, {label: len(runs) for label, runs in by_label.items()}, without)


def target_of(run: Run) -> float | None:
    """The run's target, where it has one of one objective (run.json's target value)."""
    record = run.manifest.get("target")
    if not record or len(run.objectives) != 1:
        return None
    return float(np.atleast_1d(record["value"])[0])


def runtimes(group: Group) -> Runtimes | None:
    """The runtime distribution of a single-objective group with a target (its budget has it, so every run has the
    same), from the runs with a trace.csv; None for other groups."""
    target = target_of(group.runs[0])
    by_label = traced(group)
    if target is None or not by_label:
        return None
    measure, reached = measure_of(group), {}
    for label, runs in by_label.items():
        firsts = []
        for run in runs:
            hit = np.flatnonzero(run.trace[measure].to_numpy(float) <= target)
            if len(hit):
                firsts.append(float(run.trace["seconds"].iloc[hit[0]]))
        reached[label] = np.sort(np.array(firsts))
    return Runtimes(target, reached, {label: len(runs) for label, runs in by_label.items()})
