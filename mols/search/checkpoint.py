"""Checkpoints: a search's whole state (Search.snapshot) in one file written atomically, read back checked, and the
monitor that takes one at the first step after each interval; docs/internals.md says what each search keeps."""

from __future__ import annotations

import json
import os
import threading
import warnings
import zipfile
from pathlib import Path

import numpy as np

from mols.errors import MolsError, reason
from mols.search.monitor import Monitor

CHECKPOINT = "checkpoint.npz"
FORMAT = 1  # the file's layout: a checkpoint of another is refused


def flatten(value, arrays: list):
    """`value` (dicts, lists, tuples, NumPy arrays and scalars, numbers, strings, None) as JSON, each array
    replaced by its index in `arrays`."""
    if isinstance(value, np.ndarray):
        arrays.append(value)
        return {"__array__": len(arrays) - 1}
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError(f"checkpoint state: keys must be strings, got {list(value)}")
        return {key: flatten(item, arrays) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        items = [flatten(item, arrays) for item in value]
        return {"__tuple__": items} if isinstance(value, tuple) else items
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"checkpoint state: cannot keep a {type(value).__name__}")


def unflatten(value, arrays: list):
    """flatten's `value` again, its arrays taken from `arrays`."""
    if isinstance(value, dict):
        if "__array__" in value:
            return arrays[value["__array__"]]
        if "__tuple__" in value:
            return tuple(unflatten(item, arrays) for item in value["__tuple__"])
        return {key: unflatten(item, arrays) for key, item in value.items()}
    if isinstance(value, list):
        return [unflatten(item, arrays) for item in value]
    return value


def save_checkpoint(path: Path, header: dict, state: dict) -> None:
    """`state` and its `header` (what it belongs to) into `path`, through a temporary name: a crash while writing
    leaves the checkpoint before intact. Each member of the file carries its CRC-32 (zip's), which load checks."""
    arrays: list = []
    text = json.dumps({"header": flatten(header, arrays), "state": flatten(state, arrays)})
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as file:
        np.savez(file, __json__=np.frombuffer(text.encode(), dtype=np.uint8),
                 **{f"a{i}": np.ascontiguousarray(a) for i, a in enumerate(arrays)})
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def load_checkpoint(path: Path) -> tuple[dict, dict]:
    """(header, state) of the checkpoint at `path`; MolsError naming it where it is missing or damaged (a member
    whose CRC-32 does not match, a file cut short)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        content = json.loads(arrays.pop("__json__").tobytes().decode())
        arrays = [arrays[f"a{i}"] for i in range(len(arrays))]
        return unflatten(content["header"], arrays), unflatten(content["state"], arrays)
    except FileNotFoundError:
        raise MolsError(f"{path}: no checkpoint there (was the run given --checkpoint?)") from None
    except (OSError, KeyError, IndexError, TypeError, ValueError, EOFError, zipfile.BadZipFile,
            UnicodeDecodeError) as err:
        why = reason(err) if isinstance(err, OSError) else str(err) or type(err).__name__
        raise MolsError(f"{path}: not a mols checkpoint, or a damaged one ({why})") from None


def detached(value):
    """`value` (a state) with every array copied: the search goes on changing its own while a thread writes it."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return {key: detached(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(detached(item) for item in value)
    return value


class Checkpoints(Monitor):
    """A checkpoint at the first step after every `interval` seconds of search, and where a signal stops the run:
    `take(search)` makes the state on the run's thread (None: not at this step, the next is tried) and `save(state)`
    writes it on a thread of its own while the search goes on (a save still running defers the next checkpoint; the
    run's end waits for it; an error in it fails the run at its next step, or is a warning at its end)."""

    def __init__(self, interval: float, take, save):
        if not interval > 0:
            raise ValueError(f"checkpoint interval must be positive, got {interval}")
        self.interval, self.take, self.save = interval, take, save
        self.due = None
        self.written = 0
        self._saving, self._error = None, None

    def on_step(self, search) -> None:
        now = search.profiler.elapsed()
        if self.due is None:  # the first step: the interval counts from the search's start (or its resumption)
            self.due = now + self.interval
        if now < self.due or self._busy():
            return
        state = self.take(search)
        if state is None:
            return
        self._saving = threading.Thread(target=self._save, args=(detached(state),), daemon=True)
        self._saving.start()
        self.due = search.profiler.elapsed() + self.interval

    def on_stop(self, search) -> None:
        """A run stopped by a signal after a whole step: its state then, so that resuming loses nothing."""
        self.wait()
        state = self.take(search)
        if state is not None:
            self._save(state)
            self.wait()

    def on_end(self, search, result) -> None:
        """The last checkpoint's write waited for: the run has ended, so an error in it is a warning."""
        try:
            self.wait()
        except Exception as err:  # noqa: BLE001 - the run's results are written all the same
            warnings.warn(f"the last checkpoint could not be written ({err})", stacklevel=2)

    def wait(self) -> None:
        """Until the checkpoint being written is in place; the error that stopped it, if one did."""
        if self._saving is not None:
            self._saving.join()
            self._saving = None
        error, self._error = self._error, None
        if error is not None:
            raise error

    def _busy(self) -> bool:
        if self._saving is not None and not self._saving.is_alive():
            self.wait()
        return self._saving is not None

    def _save(self, state: dict) -> None:
        try:
            self.save(state)
            self.written += 1
        except Exception as err:  # noqa: BLE001 - raised on the run's thread (wait)
            self._error = err
