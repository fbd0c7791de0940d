"""Results folders: every run writes front.csv (objective values and solutions) and run.json
(configuration, versions, device, timings, profile split, counts). Reports read only these."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

import mols
from mols.environment import environment
from mols.errors import MolsError
from mols.search import RunConfig, SearchResult
from mols.search.base import Search

FRONT, MANIFEST = "front.csv", "run.json"


@dataclass(frozen=True)
class RunContext:
    """What a results folder records about where a run ran, beside its configuration."""

    instance: str  # the instance's name, e.g. 200_20_01
    objectives: tuple[str, ...]
    device: str
    threads: int | None = None  # CPU cores the evaluation used; None on the GPU

    @classmethod
    def of(cls, search: Search) -> RunContext:
        evaluator = search.evaluator
        return cls(search.problem.instance_name, search.problem.objectives, evaluator.device,
                   getattr(evaluator, "threads", None))


def front_frame(result: SearchResult, objectives: tuple[str, ...]) -> pd.DataFrame:
    """The archive as a table sorted by objectives: one column per objective, then `solution`
    (the permutation, space-separated)."""
    F, X = result.archive.F, result.archive.X
    order = np.lexsort(F.T[::-1]) if len(F) else np.arange(0)
    frame = pd.DataFrame(F[order], columns=list(objectives))
    frame["solution"] = [" ".join(map(str, x)) for x in X[order]]
    return frame


def manifest(config: RunConfig, result: SearchResult, context: RunContext) -> dict:
    return {
        "mols": mols.__version__,
        "config": dataclasses.asdict(config),
        "instance": context.instance,
        "algorithm": config.label,
        "objectives": list(context.objectives),
        "status": result.status,
        "error": result.error,
        "device": context.device,
        "threads": context.threads,
        "environment": environment(),
        "wall_seconds": result.wall_seconds,
        "profile": result.profile,
        "iterations": result.iterations,
        "neighbors_per_iteration": result.n_neighbors,
        "evaluated_neighbors": result.evaluated_neighbors,
        "starts": result.starts,
        "archive_size": len(result.archive),
    }


def write_results(folder: Path, config: RunConfig, result: SearchResult, context: RunContext) -> None:
    """Write front.csv and run.json into folder (made if missing; these two files are replaced)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        front_frame(result, context.objectives).to_csv(folder / FRONT, index=False)
        text = json.dumps(manifest(config, result, context), indent=2)
        (folder / MANIFEST).write_text(text + "\n")
    except OSError as err:
        raise MolsError(f"results folder {folder}: {err.strerror or err}") from None
