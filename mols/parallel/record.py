"""The results layout of many searches: OUT/seed-S per search, OUT/merged_front.csv (their fronts' non-dominated
union) and the record file (batch.json or multistart.json), rebuilt from the folders (docs/internals.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from mols.archive import nondominated
from mols.errors import MolsError
from mols.results_folder import KINDS, MANIFEST, write_atomic
from mols.resume import check_instance, read_checkpoint
from mols.resume import checkpoints as checkpoints_monitor
from mols.search.checkpoint import CHECKPOINT

MERGED, BATCH, MULTISTART = "merged_front.csv", KINDS["batch"], KINDS["multistart"]
EXIT_CODES = {"completed": 0, "failed": 1}  # interrupted: 128 + the signal's number


def seed_folder(folder: Path, seed: int) -> Path:
    return folder / f"seed-{seed}"


def seed_checkpoints(config, search, checkpoints: tuple[str, float | None] | None) -> tuple[list, dict | None]:
    """A task's search's checkpoints (task.run_task): the monitor that writes them into FOLDER/seed-S every interval
    (none without one), and the state it resumes from where an earlier attempt left one there."""
    if checkpoints is None:
        return [], None
    folder, interval = checkpoints
    where = seed_folder(Path(folder), config.seed)
    state = None
    if (where / CHECKPOINT).exists():
        header, state = read_checkpoint(where)
        check_instance(header, search.problem, where)
        if {**header["config"], "instance": None} != {**config.record(), "instance": None}:
            raise MolsError(f"{where / CHECKPOINT}: a checkpoint of other options than this run's; remove it, or "
                            "choose another --output")
    if interval is None:
        return [], state
    where.mkdir(parents=True, exist_ok=True)
    return [checkpoints_monitor(config, search, where, interval)], state


def refuse_taken(folder: Path, seeds: list[int]) -> None:
    """MolsError where a seed's folder holds a run already (before any search starts: --overwrite replaces it)."""
    for seed in seeds:
        if (seed_folder(folder, seed) / MANIFEST).exists():
            raise MolsError(f"{seed_folder(folder, seed)} holds a run already; give --overwrite to replace it, "
                            "or choose another --output")


def write_merged(folder: Path, seeds: list[int], codes: dict[int, int], mode: str, name: str = BATCH,
                 extra: dict | None = None) -> dict:
    """OUT/merged_front.csv from the seeds' folders that hold a run, and OUT/`name` (the record: `mode`, how the
    searches ran, "one launch", "processes" or "dask"; `extra`: more of its keys); returns the record."""
    from mols.reporting.runs import (
        load_run,  # reporting imports pymoo: only the end of many searches needs it
    )

    searches, fronts, objectives = [], [], None
    for seed in seeds:
        where = seed_folder(folder, seed)
        code = codes.get(seed)
        entry = {"seed": seed, "folder": where.name, "exit_code": code,
                 "status": "not run" if code is None else "failed"}
        if where.with_suffix(".log").is_file():
            entry["log"] = where.with_suffix(".log").name
        if (where / MANIFEST).is_file():
            run = load_run(where)
            objectives = run.manifest["objectives"]
            entry |= {key: run.manifest[key] for key in ("status", "iterations", "wall_seconds", "archive_size")}
            fronts.append(pd.read_csv(where / "front.csv", dtype={"solution": str}).assign(seed=seed))
        searches.append(entry)
    merged = merge_fronts(fronts, objectives)
    write_atomic(folder / MERGED, merged.to_csv(index=False).encode())
    record = {"mode": mode, **(extra or {}), "searches": searches, "merged": {"file": MERGED, "rows": len(merged)}}
    write_atomic(folder / name, json.dumps(record, indent=2).encode())
    return record


def merge_fronts(fronts: list[pd.DataFrame], objectives: list[str] | None) -> pd.DataFrame:
    """The non-dominated rows of the fronts together (with one objective, the rows of the best value), each
    with the seed that found it, sorted by objectives."""
    if not fronts:
        return pd.DataFrame(columns=["seed"])
    both = pd.concat(fronts, ignore_index=True)
    F = both[objectives].to_numpy()
    keep = F[:, 0] == F[:, 0].min() if len(objectives) == 1 else nondominated(F)
    return both[keep].sort_values([*objectives, "seed"], kind="stable").reset_index(drop=True)


def unfinished(record: dict) -> str | None:
    """What went wrong in the record's searches (failed or missing ones), or None."""
    bad = [f"seed {s['seed']}: {s['status']} (exit code {s['exit_code']})" for s in record["searches"]
           if s["status"] not in ("completed", "interrupted")]
    return "; ".join(bad) if bad else None


def previous_tasks(folder: Path, fields: dict, name: str = MULTISTART) -> list[dict]:
    """The tasks of the searches already in folder (its record `name`); MolsError where they had other options."""
    record = folder / name
    if not record.is_file():
        return []
    try:
        before = json.loads(record.read_text())
    except (OSError, ValueError):
        return []
    if before.get("options") != as_json(fields):
        raise MolsError(f"{folder} holds a multistart of other options ({name}); give --overwrite to replace it, "
                        "or choose another --output")
    return before.get("tasks", [])


def as_json(fields: dict) -> dict:
    """The options as the record keeps them (tuples as lists), to compare a rerun's with."""
    return json.loads(json.dumps(fields))


def pending_seeds(folder: Path, seeds: list[int]) -> list[int]:
    """The seeds whose folder holds no completed run."""
    return [seed for seed in seeds if _status(seed_folder(folder, seed) / MANIFEST) != "completed"]


def _status(path: Path) -> str | None:
    try:
        return json.loads(path.read_text()).get("status")
    except (OSError, ValueError):
        return None
