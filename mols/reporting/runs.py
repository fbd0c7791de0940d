"""Results folders read back: a run's manifest (run.json) and front (front.csv), checked."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mols.errors import MolsError
from mols.results import FRONT, MANIFEST

REQUIRED = ("config", "algorithm", "objectives", "status", "wall_seconds", "profile", "iterations")


@dataclass(frozen=True)
class Run:
    """One results folder: its manifest and its front F (size, k), in the manifest's objective order."""

    folder: Path
    manifest: dict
    F: np.ndarray

    @property
    def instance(self) -> str:
        return self.manifest.get("instance") or Path(self.manifest["config"]["instance"]).stem

    @property
    def objectives(self) -> tuple[str, ...]:
        return tuple(self.manifest["objectives"])

    @property
    def algorithm(self) -> str:
        return self.manifest["algorithm"]

    @property
    def backend(self) -> str:
        """gpu (gpu+host archive where PLS filtered on the host), or cpu xT for T cores."""
        config, threads = self.manifest["config"], self.manifest.get("threads")
        if config["backend"] == "gpu" and config.get("archive") == "cpu" and config["algorithm"] == "pls":
            return "gpu+host archive"
        return f"cpu x{threads}" if config["backend"] == "cpu" and threads else config["backend"]

    @property
    def seed(self) -> int:
        return int(self.manifest["config"]["seed"])


def find_folders(path: Path) -> list[Path]:
    """path itself if it holds a run.json, else every folder under it that does (sorted)."""
    if not path.is_dir():
        raise MolsError(f"results folder {path}: no such folder")
    if (path / MANIFEST).is_file():
        return [path]
    found = sorted(p.parent for p in path.rglob(MANIFEST))
    if not found:
        raise MolsError(f"results folder {path}: no {MANIFEST} in it or under it")
    return found


def load_run(folder: Path) -> Run:
    """The run in folder, or MolsError naming the folder and what is wrong with it."""
    manifest = _read_manifest(folder)
    return Run(folder, manifest, _read_front(folder, manifest["objectives"]))


def _read_manifest(folder: Path) -> dict:
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except OSError as err:
        raise MolsError(f"results folder {folder}: cannot read {MANIFEST} ({err.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise MolsError(f"results folder {folder}: {MANIFEST} is not valid JSON ({err})") from None
    missing = [key for key in REQUIRED if not isinstance(manifest, dict) or key not in manifest]
    if missing:
        raise MolsError(f"results folder {folder}: {MANIFEST} lacks {', '.join(missing)}")
    return manifest


def _read_front(folder: Path, objectives: list[str]) -> np.ndarray:
    path = folder / FRONT
    try:
        front = pd.read_csv(path)
    except FileNotFoundError:
        raise MolsError(f"results folder {folder}: {FRONT} is missing") from None
    except (OSError, ValueError, pd.errors.ParserError) as err:
        raise MolsError(f"results folder {folder}: {FRONT} cannot be read ({err})") from None
    missing = [name for name in objectives if name not in front.columns]
    if missing:
        raise MolsError(f"results folder {folder}: {FRONT} lacks the objective column(s) {', '.join(missing)}")
    values = front[list(objectives)]
    if len(values) and not all(pd.api.types.is_numeric_dtype(t) for t in values.dtypes) or values.isna().any().any():
        raise MolsError(f"results folder {folder}: {FRONT} has missing or non-numeric objective values")
    return values.to_numpy(dtype=np.float64)


def load_runs(paths: list[Path]) -> tuple[list[Run], list[str]]:
    """Every run under paths, and one message per folder that could not be read (the rest still load)."""
    runs, errors = [], []
    for path in paths:
        try:
            folders = find_folders(Path(path))
        except MolsError as err:
            errors.append(str(err))
            continue
        for folder in folders:
            try:
                runs.append(load_run(folder))
            except MolsError as err:
                errors.append(str(err))
    return runs, errors
