"""A results folder, claimed before any work by a lock beside it, written through temporary names (run.json last),
and a rescue copy of the files where it cannot be written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Self

from filelock import FileLock, Timeout

from mols.errors import MolsError, reason
from mols.search.checkpoint import CHECKPOINT

FRONT, MANIFEST, TRACE = "front.csv", "run.json", "trace.csv"
KINDS = {"run": MANIFEST, "batch": "batch.json", "multistart": "multistart.json"}  # the file that says what a folder holds


def folder_kind(path: Path) -> str | None:
    """What the folder holds: a run, a batch, a multistart (its record file, or a run's front.csv or checkpoint), or
    None."""
    for kind, record in KINDS.items():
        if (path / record).exists():
            return kind
    return "run" if (path / FRONT).exists() or (path / CHECKPOINT).exists() else None


def refuse_other_kind(path: Path, kind: str) -> None:
    """MolsError where the folder holds another kind of results than `kind` (even with --overwrite)."""
    held = folder_kind(path)
    if held is not None and held != kind:
        raise MolsError(f"{path} holds a {held} ({KINDS[held]}); a {kind} cannot be written into it: choose another "
                        "--output")


def checked_output(path: Path) -> Path:
    """The path of a results folder, unless it is empty or the current directory (`-o ""` is Path("."))."""
    if path == Path("."):
        raise MolsError("--output: give a results folder, not an empty name or the current directory")
    return path


def next_free(path: Path) -> Path:
    """`path` unless it holds something already, else the first of path-2, path-3, ... that holds nothing."""
    number, candidate = 1, path
    while candidate.exists() and (not candidate.is_dir() or any(candidate.iterdir())):
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def lock_path(path: Path) -> Path:
    """The lock of a results folder: beside it, so that it exists before the folder and no run ever removes it."""
    absolute = path.resolve()
    return absolute.parent / f".{absolute.name}.mols.lock"


class ResultsFolder:
    """`with ResultsFolder(path) as out: ... out.write_files(...)`: the folder claimed on entry (its lock taken first,
    then the folder made or checked) unless it is a file, cannot be made or written, is in use by another run,
    holds another `kind` of results, or holds its kind and `overwrite` is false (MolsError, before any work). With
    `numbered`, a folder that is taken or holds a run gives way to PATH-2, PATH-3, ... (`out.path` says which). On
    exit the lock is released, and a folder this made and nothing was written to is removed again."""

    def __init__(self, path: Path, overwrite: bool = False, numbered: bool = False, kind: str = "run"):
        self.path, self.overwrite, self.numbered, self.kind = Path(path), overwrite, numbered, kind
        self.written = self.made = False
        self._lock: FileLock | None = None

    def __enter__(self) -> Self:
        base, number = self.path, 1
        while True:
            try:
                self._take()
                return self
            except _Taken:
                self.__exit__()
                if not self.numbered:
                    raise
                number += 1
                self.path = base.with_name(f"{base.name}-{number}")
            except BaseException:  # a refusal, or a signal (KeyboardInterrupt) on the way: nothing left behind
                self.__exit__()
                raise

    def _take(self) -> None:
        path = checked_output(self.path)
        try:
            lock = lock_path(path)
            lock.parent.mkdir(parents=True, exist_ok=True)
            lock.touch()  # a place we cannot write is an OSError here, not filelock's Timeout
            self._lock = FileLock(lock, timeout=0)
            self._lock.acquire()
        except Timeout:
            self._lock = None
            raise _Taken(f"results folder {path} is in use by another mols run; wait for it to end, or choose "
                         "another --output") from None
        except OSError as err:
            self._lock = None
            raise MolsError(f"results folder {path}: cannot be made ({reason(err)})") from None
        if path.exists() and not path.is_dir():
            raise MolsError(f"results folder {path}: a file of that name exists; choose another --output")
        refuse_other_kind(path, self.kind)
        if not self.overwrite and folder_kind(path) == self.kind:
            raise _Taken(f"results folder {path} holds a {self.kind} already; give --overwrite to replace it, or "
                         "choose another --output")
        try:
            path.mkdir()
            self.made = True
        except FileExistsError:
            self.made = False
        except OSError as err:
            raise MolsError(f"results folder {path}: cannot be made ({reason(err)})") from None

    def __exit__(self, *exc) -> None:
        """The folder removed if this made it and nothing was written (abandon), then the lock released."""
        self.abandon()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def abandon(self) -> None:
        """The folder removed if this made it and nothing was written (and it is empty)."""
        if self.made and not self.written:
            try:
                self.path.rmdir()
            except OSError:
                pass  # something is in it: leave it
        self.made = False

    def write_files(self, files: dict[str, bytes], durable: bool = True) -> None:
        """A run's files by name into the folder (write_files')."""
        write_files(self.path, files, durable)
        self.written = True


def write_files(path: Path, files: dict[str, bytes], durable: bool = True, make: bool = False) -> None:
    """A run's files by name (front.csv, trace.csv and run.json, perhaps made on another machine) into the folder
    `path` (with `make`, made where missing): all written under temporary names first (flushed to the disk unless not
    `durable`: a caller that writes many folders syncs once, sync_disks), then renamed over the old ones, run.json
    last, so an old run stays whole until the new one is in place. Where they cannot be written, a rescue copy is
    made and the MolsError names both places. The caller has claimed the folder or the run's folder above it."""
    names = [*(name for name in files if name != MANIFEST), MANIFEST]
    staged: list[Path] = []
    try:
        if make:
            path.mkdir(exist_ok=True)
        for name in names:
            staged.append(stage(path / name, files[name], durable))
        for name, temporary in zip(names, staged):
            os.replace(temporary, path / name)
    except OSError as err:
        for temporary in staged:
            temporary.unlink(missing_ok=True)
        raise MolsError(f"results folder {path}: cannot be written ({reason(err)}); "
                        f"{rescue(files, path.name)}") from None


class _Taken(MolsError):
    """The folder is another run's (in use, or holding a run): a numbered folder tries the next name."""


def stage(path: Path, data: bytes, durable: bool = True) -> Path:
    """data in a temporary file beside path, flushed to the disk where `durable`; the caller renames it into place."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def sync_disks() -> None:
    """What was written so far flushed to the disks (os.sync, where the system has it): one call for the folders of
    many searches, each of whose files would otherwise wait for the disk in turn (reports/multistart/)."""
    if hasattr(os, "sync"):
        os.sync()


def write_atomic(path: Path, data: bytes) -> None:
    """data in path, through a temporary file of the same folder renamed over it: never half written."""
    os.replace(stage(path, data), path)


def rescue(files: dict[str, bytes], name: str) -> str:
    """The files written into a new folder of the system's temporary folder, else of the current directory; says
    where (or that no copy could be made)."""
    for root in (Path(tempfile.gettempdir()), Path.cwd()):
        try:
            folder = Path(tempfile.mkdtemp(prefix=f"mols-rescue-{name}-", dir=root))
            for file, data in files.items():
                (folder / file).write_bytes(data)
        except OSError:
            continue
        return f"the run's {' and '.join(files)} are in {folder}"
    return "no copy of the run's files could be written either"
