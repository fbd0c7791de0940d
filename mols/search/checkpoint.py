"""Checkpoints: a search's whole state (Search.snapshot) in one file written atomically, read back checked, and the
monitor that takes one at the first step after each interval; docs/internals.md says what each search keeps."""

from __future__ import annotations

import hashlib
import io
import json
import os
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


def unflatten(value, arrays: dict):
    if isinstance(value, dict):
        if "__array__" in value:
            return arrays[f"a{value['__array__']}"]
        if "__tuple__" in value:
            return tuple(unflatten(item, arrays) for item in value["__tuple__"])
        return {key: unflatten(item, arrays) for key, item in value.items()}
    if isinstance(value, list):
        return [unflatten(item, arrays) for item in value]
    return value


def save_checkpoint(path: Path, header: dict, state: dict) -> None:
    """`state` and its `header` (what it belongs to) into `path`, through a temporary name: a crash while writing
    leaves the checkpoint before intact."""
    arrays: list = []
    text = json.dumps({"header": header, "state": flatten(state, arrays)})
    buffer = io.BytesIO()
    np.savez(buffer, __json__=np.frombuffer(text.encode(), dtype=np.uint8),
             __sha256__=np.frombuffer(_digest(text, arrays).encode(), dtype=np.uint8),
             **{f"a{i}": np.ascontiguousarray(a) for i, a in enumerate(arrays)})
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as file:
        file.write(buffer.getvalue())
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def load_checkpoint(path: Path) -> tuple[dict, dict]:
    """(header, state) of the checkpoint at `path`; MolsError naming it where it is missing or damaged."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        text = arrays.pop("__json__").tobytes().decode()
        digest = arrays.pop("__sha256__").tobytes().decode()
        content = json.loads(text)
        ordered = [arrays[f"a{i}"] for i in range(len(arrays))]
    except FileNotFoundError:
        raise MolsError(f"{path}: no checkpoint there (was the run given --checkpoint?)") from None
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile, UnicodeDecodeError) as err:
        why = reason(err) if isinstance(err, OSError) else str(err) or type(err).__name__
        raise MolsError(f"{path}: not a mols checkpoint, or a damaged one ({why})") from None
    if _digest(text, ordered) != digest:
        raise MolsError(f"{path}: a damaged checkpoint (its content does not match its checksum)")
    return content["header"], unflatten(content["state"], arrays)


def _digest(text: str, arrays: list) -> str:
    digest = hashlib.sha256(text.encode())
    for array in arrays:
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


class Checkpoints(Monitor):
    """Calls `write(search, state)` with search.snapshot() at the first step after every `interval` seconds of
    search, and where a signal stops the run; a step where the search cannot take one (snapshot() is None) passes
    it on to the next."""

    def __init__(self, interval: float, write):
        if not interval > 0:
            raise ValueError(f"checkpoint interval must be positive, got {interval}")
        self.interval, self.write = interval, write
        self.due = None
        self.written = 0

    def on_step(self, search) -> None:
        now = search.profiler.elapsed()
        if self.due is None:  # the first step: the interval counts from the search's start (or its resumption)
            self.due = now + self.interval
        if now < self.due:
            return
        state = search.snapshot()
        if state is None:
            return
        self.write(search, state)
        self.written += 1
        self.due = search.profiler.elapsed() + self.interval

    def on_stop(self, search) -> None:
        """A run stopped by a signal after a whole step: its state then, so that resuming loses nothing."""
        state = search.snapshot()
        if state is not None:
            self.write(search, state)
            self.written += 1
