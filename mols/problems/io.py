"""What every instance reader shares: text files read strictly, whole numbers read safely, bad input quoted
briefly, bundled names, and what an error about an instance names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from mols.errors import InstanceError, reason

_INTEGER = re.compile(r"([+-]?)0*([0-9]+)")  # ASCII only: str.isdigit() also takes '²', which int() refuses


def read_text(path: str | Path) -> str:
    """The file's text (UTF-8, a byte-order mark allowed), or an InstanceError if it is missing, a folder,
    unreadable or not text."""
    path = Path(path)
    try:
        if path.is_dir():
            raise InstanceError(path, "no such file: this is a directory")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InstanceError(path, "no such file") from None
    except OSError as err:  # is_dir() too: a name too long for the system (ENAMETOOLONG)
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


def integer(token: str, limit: int) -> int | None:
    """token as an integer within +-limit (an optional sign, then digits), else None. Its length is checked
    first: int() refuses more than 4300 digits, leading zeros included, with a ValueError."""
    match = _INTEGER.fullmatch(token)
    if not match or len(match.group(2)) > len(str(limit)) or int(match.group(2)) > limit:
        return None
    return -int(match.group(2)) if match.group(1) == "-" else int(match.group(2))


def whole_number(token: str, limit: int) -> int | None:
    """token as a whole number in 0..limit (digits, no sign), else None."""
    return None if token.startswith(("+", "-")) else integer(token, limit)


def is_file(path: str | Path) -> bool:
    """Path.is_file(), False too where the name cannot be a file's (too long: is_file() raises ENAMETOOLONG)."""
    return _asked(Path.is_file, path)


def _asked(check, path: str | Path) -> bool:
    try:
        return check(Path(path))
    except OSError:
        return False


def source(instance) -> str:
    """What an error about an instance's data names: the file it was read from (as the user gave it), else
    its name; never a name read from inside the file, which the user may not know."""
    path = getattr(instance, "path", None)
    return str(path) if path is not None else instance.name


def bundled_instances_dir() -> Path:
    """The instances bundled with the package (mols/instances), wherever mols is installed."""
    return Path(str(resources.files("mols") / "instances"))


def find_bundled(name: str, folders: Iterable[str], suffixes: Iterable[str] = ("",)) -> Path | None:
    """An existing file as is, else the bundled file `name` (with one of the suffixes) in one of the bundled
    folders, else an existing directory (which the reader then refuses); None if there is none. A directory
    never shadows a bundled name: a results folder named after its instance must not hide it."""
    given = Path(name)
    if is_file(given):
        return given
    root = bundled_instances_dir()
    for folder in folders:
        for suffix in suffixes:
            if is_file(root / folder / f"{name}{suffix}"):
                return root / folder / f"{name}{suffix}"
    return given if _asked(Path.exists, given) else None
