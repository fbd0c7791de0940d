"""What every instance reader shares: text files read strictly, bad input quoted briefly, bundled names."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from mols.errors import InstanceError, reason


def read_text(path: str | Path) -> str:
    """The file's text (UTF-8, a byte-order mark allowed), or an InstanceError if it is missing, a folder,
    unreadable or not text."""
    path = Path(path)
    if not path.exists():
        raise InstanceError(path, "no such file")
    if path.is_dir():
        raise InstanceError(path, "no such file: this is a directory")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InstanceError(path, f"cannot read the file: {reason(err)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        message = f"not a text file: byte 0x{data[err.start]:02x} is not UTF-8"
        raise InstanceError(path, message, data.count(b"\n", 0, err.start) + 1) from None
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise InstanceError(path, "not a text file: it contains NUL bytes", line)
    return text


def numbered_lines(text: str, first: int = 1) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line of text, numbered from `first`."""
    return enumerate(text.split("\n"), start=first)


def token_lines(text: str, first: int = 1) -> Iterator[tuple[int, list[str]]]:
    """(line number, whitespace-separated tokens) for every non-blank line of text, numbered from `first`."""
    for number, line in numbered_lines(text, first):
        tokens = line.split()
        if tokens:
            yield number, tokens


def bundled_instances_dir() -> Path:
    """The instances bundled with the package (mols/instances), wherever mols is installed."""
    return Path(str(resources.files("mols") / "instances"))


def find_bundled(name: str, folders: Iterable[str], suffixes: Iterable[str] = ("",)) -> Path | None:
    """An existing file as is, else the bundled file `name` (with one of the suffixes) in one of the bundled
    folders, else an existing directory (which the reader then refuses); None if there is none. A directory
    never shadows a bundled name: a results folder named after its instance must not hide it."""
    given = Path(name)
    if given.is_file():
        return given
    root = bundled_instances_dir()
    for folder in folders:
        for suffix in suffixes:
            if (root / folder / f"{name}{suffix}").is_file():
                return root / folder / f"{name}{suffix}"
    return given if given.exists() else None
