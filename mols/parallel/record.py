"""The results layout of many searches: OUT/seed-S per search, OUT/merged_front.csv (their fronts' non-dominated
union) and the record file (batch.json or multistart.json), rebuilt from the folders (docs/internals.md)."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mols.archive import nondominated
from mols.errors import MolsError
from mols.results_folder import FRONT, KINDS, MANIFEST, write_atomic, write_files
from mols.resume import check_instance, finished, read_checkpoint
from mols.resume import checkpoints as checkpoints_monitor
from mols.search.checkpoint import CHECKPOINT

MERGED, BATCH, MULTISTART = "merged_front.csv", KINDS["batch"], KINDS["multistart"]
EXIT_CODES = {"completed": 0, "failed": 1}  # interrupted: 128 + the signal's number
WRITERS = 2  # threads writing the searches' folders (flushed to the disk once, sync_disks): more only contend for the GIL


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


def write_seed(folder: Path, seed: int, files: dict[str, bytes], durable: bool = True) -> None:
    """One search's files into OUT/seed-S (results_folder.write_files'), OUT being claimed by the caller's run, so
    that the seed's folder needs no lock of its own (a thousand searches left a thousand lock files); its checkpoint
    there removed once the run completed."""
    path = seed_folder(folder, seed)
    write_files(path, files, durable, make=True)
    if json.loads(files[MANIFEST]).get("status") == "completed":
        finished(path)


def refuse_taken(folder: Path, seeds: list[int]) -> None:
    """MolsError where a seed's folder holds a run already (before any search starts: --overwrite replaces it)."""
    for seed in seeds:
        if (seed_folder(folder, seed) / MANIFEST).exists():
            raise MolsError(f"{seed_folder(folder, seed)} holds a run already; give --overwrite to replace it, "
                            "or choose another --output")


@dataclass(frozen=True)
class Written:
    """A search's files as written into its folder by this process: run.json's content, front.csv's bytes and the
    archive's values of the objectives it optimised, so that the record reads no folder back (docs/internals.md)."""

    manifest: dict
    front: bytes
    F: np.ndarray

    @classmethod
    def of(cls, files: dict[str, bytes], F: np.ndarray) -> Written:
        return cls(json.loads(files[MANIFEST]), files[FRONT], np.asarray(F, dtype=np.float64))


def write_merged(folder: Path, seeds: list[int], codes: dict[int, int], mode: str, name: str = BATCH,
                 extra: dict | None = None, written: dict[int, Written] | None = None) -> dict:
    """OUT/merged_front.csv from the seeds' folders that hold a run, and OUT/`name` (the record: `mode`, how the
    searches ran, "one launch", "processes" or "dask"; `extra`: more of its keys); returns the record. `written`:
    the seeds this process wrote, taken from memory instead of their folders."""
    from mols.reporting.runs import (
        load_run,  # reporting imports pymoo: only the end of many searches needs it
    )

    written = written or {}
    searches, runs, objectives = [], {}, None
    for seed in seeds:
        where = seed_folder(folder, seed)
        code = codes.get(seed)
        entry = {"seed": seed, "folder": where.name, "exit_code": code,
                 "status": "not run" if code is None else "failed"}
        if where.with_suffix(".log").is_file():
            entry["log"] = where.with_suffix(".log").name
        if seed in written or (where / MANIFEST).is_file():
            run = written[seed] if seed in written else load_run(where)
            objectives = run.manifest["objectives"]
            entry |= {key: run.manifest[key] for key in ("status", "iterations", "wall_seconds", "archive_size")}
            runs[seed] = run
        searches.append(entry)
    fronts = [_front(folder, seed, runs[seed]).assign(seed=seed) for seed in _contributing(runs, objectives)]
    merged = merge_fronts(fronts, objectives)
    write_atomic(folder / MERGED, merged.to_csv(index=False).encode())
    record = {"mode": mode, **(extra or {}), "searches": searches, "merged": {"file": MERGED, "rows": len(merged)}}
    write_atomic(folder / name, json.dumps(record, indent=2).encode())
    return record


def _contributing(runs: dict, objectives: list[str] | None) -> list[int]:
    """The seeds whose front may hold a row of the merged one: with one objective, those whose best is within a
    rounding of the best of all (front.csv's text may differ from the archive's values in the last bit), so that
    only their fronts are parsed; with several, every seed."""
    if objectives is None or len(objectives) != 1:
        return list(runs)
    best = {seed: run.F[:, 0].min() for seed, run in runs.items() if len(run.F)}
    if not best:
        return list(runs)
    least = min(best.values())
    margin = 1e-9 * max(1.0, abs(least))
    return [seed for seed in runs if seed not in best or best[seed] <= least + margin]


def _front(folder: Path, seed: int, run) -> pd.DataFrame:
    data = run.front if isinstance(run, Written) else (seed_folder(folder, seed) / FRONT).read_bytes()
    return pd.read_csv(io.BytesIO(data), dtype={"solution": str})


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
