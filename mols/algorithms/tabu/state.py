"""A tabu search's round of runs in a checkpoint (AggregatedTabu.snapshot): each run's walk left to take from where
it stands (TabuRun.rest: solution, threshold, steps, draw keys and tabu memory), its best, its pending coefficients
and its archive, and the archives of the runs not merged yet; the same on every backend."""

from __future__ import annotations

import numpy as np

from mols.algorithms.tabu.steps import TabuRun, WalkLane
from mols.archive import Archive
from mols.search.base import DrawKeys, archive_state, restore_archive


def rounds_state(runs: list[TabuRun], opened: list[Archive], archive: Archive) -> dict:
    """The runs of a round (their archives: `archive`, the search's, or one of `opened`, not merged yet)."""
    return {"open": [archive_state(a) for a in opened], "runs": [_run_state(run, opened, archive) for run in runs]}


def restored_round(state: dict, opened: list[Archive], archive: Archive) -> list[TabuRun]:
    """rounds_state's runs again, `opened` (new archives, one per state["open"]) holding what they held."""
    for held, part in zip(opened, state["open"]):
        restore_archive(held, part)
    return [TabuRun(WalkLane(run["x"], run["c"], run["threshold"], run["steps"], _keys(run["keys"]), run["tabu"]),
                    archive if run["archive"] < 0 else opened[run["archive"]], run["best"], tuple(run["best_xf"]),
                    run["pending"]) for run in state["runs"]]


def _run_state(run: TabuRun, opened: list[Archive], archive: Archive) -> dict:
    lane = run.rest()
    keys = lane.keys
    if isinstance(keys, DrawKeys):
        keys = {"seed": keys.seed, "first": keys.first, "count": keys.count}
    own = -1 if run.archive is archive else next(i for i, held in enumerate(opened) if held is run.archive)
    return {"x": lane.x, "c": np.asarray(lane.c, dtype=np.float64), "threshold": float(lane.threshold),
            "steps": int(lane.steps), "keys": keys, "tabu": lane.tabu, "archive": own, "best": float(run.best),
            "best_xf": run.best_xf, "pending": run.pending}


def _keys(keys):
    return DrawKeys(**keys) if isinstance(keys, dict) else keys
