"""Results folders read back: a run's manifest (run.json), front (front.csv) and trace (trace.csv), checked."""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mols.errors import MolsError, reason
from mols.results import FRONT, MANIFEST, TRACE

REQUIRED = ("config", "algorithm", "objectives", "status", "wall_seconds", "profile", "iterations")


def group_label(algorithm: str, backend: str) -> str:
    """How the report's plots and tests name the runs of one algorithm and backend over seeds."""
    return f"{algorithm} · {backend}"


@dataclass(frozen=True)
class Run:
    """One results folder: its manifest, its front F (size, k), in the manifest's objective order, and its trace
    (trace.csv's rows; None for a folder written before runs had one)."""

    folder: Path
    manifest: dict
    F: np.ndarray
    trace: pd.DataFrame | None = None

    @property
    def instance(self) -> str:
        return self.manifest.get("instance") or Path(self.manifest["config"]["instance"]).stem

    @property
    def problem(self) -> str:
        return self.manifest["config"].get("problem", "flowshop")  # RunConfig's default, where a config lacks it

    @property
    def objectives(self) -> tuple[str, ...]:
        return tuple(self.manifest["objectives"])

    @property
    def algorithm(self) -> str:
        return self.manifest["algorithm"]

    @property
    def backend(self) -> str:
        """The backend's label (BackendSpec.label: gpu, gpu+host archive, cpu xT for T cores); derived
        from the configuration for folders written before run.json recorded it."""
        if self.manifest.get("backend"):
            return self.manifest["backend"]
        config, threads = self.manifest["config"], self.manifest.get("threads")
        if config["backend"] == "gpu" and config.get("archive") == "cpu" and config["algorithm"] == "pls":
            return "gpu+host archive"
        return f"cpu x{threads}" if config["backend"] == "cpu" and threads else config["backend"]

    @property
    def label(self) -> str:
        return group_label(self.algorithm, self.backend)

    @property
    def seed(self) -> int:
        return int(self.manifest["config"]["seed"])


def find_folders(path: Path) -> tuple[list[Path], list[str]]:
    """The results folders at path (path itself if it holds a run.json, else every folder under it that
    does, sorted), and one message per incomplete folder (a front.csv without its run.json: a run cut
    short while writing, or one being written now). MolsError where path is a file, is missing, or holds
    neither."""
    if path.is_file():
        hint = f"; give its folder, {path.parent}" if path.name in (MANIFEST, FRONT) else ""
        raise MolsError(f"{path} is a file, not a results folder{hint}")
    if not path.is_dir():
        raise MolsError(f"results folder {path}: no such folder")
    if (path / MANIFEST).is_file():
        return [path], []
    found = sorted(p.parent for p in path.rglob(MANIFEST))
    incomplete = [f"results folder {p.parent}: incomplete (it has {FRONT} but no {MANIFEST}: cut short while "
                  "writing, or being written now)" for p in sorted(path.rglob(FRONT)) if not (p.parent / MANIFEST).exists()]
    if not found and not incomplete:
        raise MolsError(f"results folder {path}: no {MANIFEST} in it or under it")
    return found, incomplete


def load_run(folder: Path) -> Run:
    """The run in folder, or MolsError naming the folder and what is wrong with it."""
    manifest = _read_manifest(folder)
    return Run(folder, manifest, _read_front(folder, manifest), _read_trace(folder, manifest))


def _read_manifest(folder: Path) -> dict:
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except OSError as err:
        raise MolsError(f"results folder {folder}: cannot read {MANIFEST} ({reason(err)})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise MolsError(f"results folder {folder}: {MANIFEST} is not valid JSON ({err})") from None
    missing = [key for key in REQUIRED if not isinstance(manifest, dict) or key not in manifest]
    if missing:
        raise MolsError(f"results folder {folder}: {MANIFEST} lacks {', '.join(missing)}")
    return manifest


def _read_front(folder: Path, manifest: dict) -> np.ndarray:
    """front.csv's objective values, checked against what run.json says of it (its row count, and its
    SHA-256 where recorded): a front cut short or from another run is an error."""
    path, objectives = folder / FRONT, manifest["objectives"]
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise MolsError(f"results folder {folder}: {FRONT} is missing") from None
    except OSError as err:
        raise MolsError(f"results folder {folder}: {FRONT} cannot be read ({reason(err)})") from None
    recorded = manifest.get("front", {}).get("sha256")
    if recorded is not None and hashlib.sha256(data).hexdigest() != recorded:
        raise MolsError(f"results folder {folder}: {FRONT} is not the one {MANIFEST} recorded (cut short, or "
                        "written by another run)")
    try:
        front = pd.read_csv(io.BytesIO(data), dtype={"solution": str})
    except (ValueError, pd.errors.ParserError) as err:
        raise MolsError(f"results folder {folder}: {FRONT} cannot be read ({err})") from None
    missing = [name for name in objectives if name not in front.columns]
    if missing:
        raise MolsError(f"results folder {folder}: {FRONT} lacks the objective column(s) {', '.join(missing)}")
    size = manifest.get("archive_size")
    if size is not None and len(front) != size:
        raise MolsError(f"results folder {folder}: {FRONT} has {len(front)} rows, but {MANIFEST} says the archive "
                        f"held {size} (cut short?)")
    values = front[list(objectives)]
    if len(values) and not all(pd.api.types.is_numeric_dtype(t) for t in values.dtypes) or values.isna().any().any():
        raise MolsError(f"results folder {folder}: {FRONT} has missing or non-numeric objective values")
    if "solution" in front and front["solution"].fillna("").str.split().str.len().nunique() > 1:
        raise MolsError(f"results folder {folder}: {FRONT} has solutions of different lengths (a row cut short?)")
    return values.to_numpy(dtype=np.float64)


def _read_trace(folder: Path, manifest: dict) -> pd.DataFrame | None:
    """trace.csv's rows where run.json records one (None where it does not: an older folder), checked against its
    row count and SHA-256."""
    record = manifest.get("trace")
    if not record:
        return None
    try:
        data = (folder / TRACE).read_bytes()
    except OSError as err:
        raise MolsError(f"results folder {folder}: {TRACE} cannot be read ({reason(err)})") from None
    if hashlib.sha256(data).hexdigest() != record.get("sha256"):
        raise MolsError(f"results folder {folder}: {TRACE} is not the one {MANIFEST} recorded (cut short, or "
                        "written by another run)")
    try:
        trace = pd.read_csv(io.BytesIO(data))
    except (ValueError, pd.errors.ParserError) as err:
        raise MolsError(f"results folder {folder}: {TRACE} cannot be read ({err})") from None
    if len(trace) != record.get("rows"):
        raise MolsError(f"results folder {folder}: {TRACE} has {len(trace)} rows, but {MANIFEST} says "
                        f"{record.get('rows')}")
    return trace


def load_runs(paths: list[Path]) -> tuple[list[Run], list[str]]:
    """Every run under paths, each folder once however often it is given or found, and one message per
    folder that could not be read or is incomplete (the rest still load)."""
    runs, errors, seen = [], [], set()
    for path in paths:
        try:
            folders, incomplete = find_folders(Path(path))
        except MolsError as err:
            errors.append(str(err))
            continue
        errors += [message for message in incomplete if message not in errors]
        for folder in folders:
            if folder.resolve() in seen:
                continue
            seen.add(folder.resolve())
            try:
                runs.append(load_run(folder))
            except MolsError as err:
                errors.append(str(err))
    return runs, errors
