"""Pairwise rank tests over seeds on the hypervolume (two-sided Mann-Whitney U with the effect size A12): is one
algorithm and backend better than another? docs/internals.md says why not Wilcoxon's signed-rank test."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import mannwhitneyu

from mols.reporting.runs import group_label

ALPHA = 0.05
NO_DIFFERENCE = "no significant difference"
COLUMNS = ["group", "instance", "A", "B", "runs A", "runs B", "hv median A", "hv median B", "A12", "p", "better"]


def compare(a: np.ndarray, b: np.ndarray, names: tuple[str, str] = ("A", "B")) -> dict:
    """The test of hypervolumes a against b: A12, the p-value and the better side by its name in
    `names` (or NO_DIFFERENCE)."""
    u, p = mannwhitneyu(a, b, alternative="two-sided")
    a12 = float(u) / (len(a) * len(b))
    better = NO_DIFFERENCE if not p < ALPHA else names[0] if a12 > 0.5 else names[1]
    return {"A12": a12, "p": float(p), "better": better}


def hv_rank_tests(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per report group (mols.reporting.groups) and pair of algorithms and backends in it (the report's
    runs table, with its `group`, `instance` and `hv` columns): the two sides' sizes and median hypervolumes,
    A12, the p-value, and the better side by name (or NO_DIFFERENCE). Runs of two groups are never compared."""
    rows = []
    for (group, instance), of_group in runs.groupby(["group", "instance"], sort=True):
        hv = {group_label(*key): side["hv"].to_numpy()
              for key, side in of_group.groupby(["algorithm", "backend"], sort=True)}
        for a, b in combinations(hv, 2):
            rows.append({"group": group, "instance": instance, "A": a, "B": b, "runs A": len(hv[a]),
                         "runs B": len(hv[b]), "hv median A": float(np.median(hv[a])),
                         "hv median B": float(np.median(hv[b])), **compare(hv[a], hv[b], (a, b))})
    return pd.DataFrame(rows, columns=COLUMNS)
