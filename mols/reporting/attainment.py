"""Empirical attainment functions (EAF) of bi-objective runs over seeds, from moocore: the best, median and worst
attainment surfaces of k fronts, and the difference of two groups' EAFs (docs/internals.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import moocore
import numpy as np

from mols.reporting.runs import Run

LEVELS = ("best", "median", "worst")


def levels(k: int) -> dict[str, int]:
    """How many of k runs must attain a point of each named surface."""
    return {"best": 1, "median": math.ceil(k / 2), "worst": k}


def _stacked(fronts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The fronts' points in one array, and the run (1, 2, ...) of each point."""
    return np.concatenate(fronts), np.repeat(np.arange(1, len(fronts) + 1), [len(f) for f in fronts])


def attainment_surfaces(fronts: list[np.ndarray]) -> dict[str, np.ndarray]:
    """The best, median and worst attainment surfaces of the fronts (one per run, two objectives each),
    each sorted by its first objective."""
    k = len(fronts)
    eaf = moocore.eaf(*_stacked(fronts))
    attained_by = np.rint(eaf[:, -1] * k / 100).astype(int)  # moocore gives the level as a percentage of k
    return {name: _sorted(eaf[attained_by == t, :-1]) for name, t in levels(k).items()}


def eaf_difference(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """Rectangles (x_min, y_min, x_max, y_max, d) where the EAF of fronts a minus that of fronts b is d,
    a fraction in [-1, 1] (positive where a's runs attain the rectangle more often; a maximum may be
    inf). a and b hold the same number of runs, as moocore's eafdiff requires; rectangles of d = 0 are
    left out."""
    if len(a) != len(b):
        raise ValueError(f"an EAF difference compares equal numbers of runs, got {len(a)} and {len(b)}")
    x, y = (np.column_stack(_stacked(fronts)) for fronts in (a, b))
    rectangles = moocore.eafdiff(x, y, rectangles=True)
    rectangles[:, -1] /= len(a)
    return rectangles[rectangles[:, -1] != 0]


def _sorted(points: np.ndarray) -> np.ndarray:
    return points[np.lexsort(points.T[::-1])]


@dataclass
class InstanceEAF:
    """The EAF of one bi-objective report group: its surfaces per algorithm and backend (Run.label), and the
    EAF difference of each pair of them (None where their numbers of runs differ)."""

    objectives: tuple[str, ...]
    surfaces: dict[str, dict[str, np.ndarray]]
    differences: dict[tuple[str, str], np.ndarray | None]
    runs: dict[str, int]  # runs per label

    @property
    def points(self) -> np.ndarray:
        """Every point of every surface: the extent of the plots."""
        return np.concatenate([s for by_level in self.surfaces.values() for s in by_level.values()])


def is_bi_objective(runs: list[Run]) -> bool:
    """Whether all the runs optimised the same two objectives (Run.objectives: run.json's `objectives`)."""
    return len({run.objectives for run in runs}) == 1 and len(runs[0].objectives) == 2


def instance_eaf(runs: list[Run]) -> InstanceEAF:
    """The EAF of the runs of one bi-objective report group, by algorithm and backend over seeds."""
    groups: dict[str, list[np.ndarray]] = {}
    for run in sorted(runs, key=lambda r: (r.label, r.seed)):
        groups.setdefault(run.label, []).append(run.F)
    differences = {(a, b): eaf_difference(groups[a], groups[b]) if len(groups[a]) == len(groups[b]) else None
                   for a, b in combinations(groups, 2)}
    return InstanceEAF(runs[0].objectives, {label: attainment_surfaces(f) for label, f in groups.items()},
                       differences, {label: len(f) for label, f in groups.items()})
