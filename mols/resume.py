"""A run's checkpoints in its results folder, and a run resumed from one: what the checkpoint belongs to (mols's
version, the configuration, the instance's content) is written beside the search's state and checked on the way back."""

from __future__ import annotations

from pathlib import Path

import mols
from mols.errors import MolsError, OptionError
from mols.results import instance_digest
from mols.runner.config import RunConfig
from mols.search.checkpoint import CHECKPOINT, FORMAT, Checkpoints, load_checkpoint, save_checkpoint

# what a resumed run may take from its command line rather than from its checkpoint: where it runs, and how often
# it checkpoints (any other option would make another run)
OVERRIDES = ("backend", "threads", "block", "tune", "gpus")


def checkpoint_header(config: RunConfig, problem, interval: float) -> dict:
    """What a checkpoint belongs to: the mols version, the run's configuration and its instance's content."""
    return {"mols": mols.__version__, "format": FORMAT, "config": config.record(),
            "instance_sha256": instance_digest(problem), "interval": interval}


def checkpoints(config: RunConfig, search, folder: Path, interval: float, more=None) -> Checkpoints:
    """The monitor that writes the run's checkpoint into `folder` every `interval` seconds of search; `more()` adds
    to the search's state what the run keeps beside it. The run's trace goes with it (a Runner resumed from the state
    continues it: search/trace.py's trace_of)."""
    if not search.resumable and search.resumes_with:
        needs, mentioned = search.resumes_with
        raise OptionError("checkpoint", f": {config.label} can be resumed from a checkpoint only {needs}", *mentioned)
    if not search.resumable:
        raise OptionError("checkpoint", f": {config.label} cannot be resumed from a checkpoint yet")
    header = checkpoint_header(config, search.problem, interval)

    def take(search) -> dict | None:
        state = search.snapshot()
        if state is None:
            return None
        trace = getattr(search, "trace", None)  # none for a batch in one launch, whose searches' traces start again
        state = {**state, **({"trace": trace.state()} if trace is not None else {})}
        return state if more is None else {**state, **more()}

    return Checkpoints(interval, take, lambda state: save_checkpoint(Path(folder) / CHECKPOINT, header, state))


def read_checkpoint(folder: Path) -> tuple[dict, dict]:
    """(header, state) of the checkpoint in a results folder, refused (MolsError naming it) where it is damaged or
    was written by another mols version or format."""
    path = Path(folder) / CHECKPOINT
    if not Path(folder).is_dir():
        raise MolsError(f"--resume {folder}: no such results folder")
    header, state = load_checkpoint(path)
    if header.get("format") != FORMAT or not isinstance(header.get("config"), dict):
        raise MolsError(f"{path}: a checkpoint of another format ({header.get('format')!r}; this mols reads "
                        f"{FORMAT})")
    if header.get("mols") != mols.__version__:
        raise MolsError(f"{path}: written by mols {header.get('mols')}, and this is mols {mols.__version__}; resume "
                        "it with the version that wrote it")
    return header, state


def resumed_config(header: dict, **overrides) -> RunConfig:
    """The configuration of the checkpointed run, on the backend (threads, block, tune) given where one is."""
    record = dict(header["config"])
    given = {name: value for name, value in overrides.items() if value is not None}
    unknown = set(given) - set(OVERRIDES)
    if unknown:
        raise OptionError(min(unknown), "cannot change when a run resumes: its checkpoint holds the run's "
                          "options")
    if "backend" in given and given["backend"] != record["backend"]:  # the new device's own defaults
        record.update(archive=None, block=None, tune=False, threads=None)
    return RunConfig(**(record | given))


def check_instance(header: dict, problem, folder: Path) -> None:
    """MolsError unless the instance the run loads now is the one the checkpoint was taken on."""
    if instance_digest(problem) != header["instance_sha256"]:
        raise MolsError(f"{Path(folder) / CHECKPOINT}: taken on another instance than {problem.instance_name} is "
                        "now (its content differs); nothing was changed")


def finished(folder: Path) -> None:
    """The checkpoint of a run that completed removed: nothing is left to resume."""
    (Path(folder) / CHECKPOINT).unlink(missing_ok=True)
