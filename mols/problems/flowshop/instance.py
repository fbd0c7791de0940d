"""Flowshop instances: strict reader for the Liefooghe/ParadisEO and Taillard file formats."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, excerpt
from mols.problems.io import bundled_instances_dir, find_bundled, integer, read_text, token_lines

PARK_MILLER_MODULUS = 2**31 - 1
"""Modulus of Taillard's Park-Miller generator; u = state / PARK_MILLER_MODULUS."""
_PARK_MILLER_MULTIPLIER = 16807
_MAX_VALUE = 2**31 - 1  # largest accepted number in a file; keeps all sums far from int64 limits
_INTEGER = re.compile(r"[+-]?[0-9]+")
_TAILLARD_HEADER = "number of jobs"
_TAILLARD_TIMES_WORDS = ["processing", "times", ":"]
_FORMATS = (
    "expected a lone integer N (Liefooghe/ParadisEO format) "
    "or a line starting with 'number of jobs' (Taillard format)"
)
_SEARCH_FOLDERS = ("flowshop", "flowshop/derived", "flowshop/taillard")


@dataclass(frozen=True, eq=False, repr=False)
class FlowshopInstance:
    """A permutation flowshop instance with due dates; arrays are int64 and read-only.

    eq=False: instances compare and hash by identity (numpy arrays have no scalar equality).
    """

    name: str  # file stem, e.g. "020_10_01" or "ta011"
    p: np.ndarray  # (m, n) processing times, machine-major: p[i, j] = machine i, job j
    due: np.ndarray  # (n,) due dates
    seed: int | None  # Taillard time seed from the file, if any
    due_dates: str  # "file" (Liefooghe format) or "derived" (Taillard format)
    path: Path | None = None  # the file read, which errors name

    def __post_init__(self) -> None:
        p = np.array(self.p, dtype=np.int64, order="C")  # copies; C order for kernels
        due = np.array(self.due, dtype=np.int64)
        if p.ndim != 2 or min(p.shape) < 1 or due.shape != (p.shape[1],):
            raise ValueError(f"need p of shape (m, n) and due of shape (n,), got {p.shape} and {due.shape}")
        p.setflags(write=False)
        due.setflags(write=False)
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "due", due)

    @property
    def n(self) -> int:
        """Number of jobs."""
        return int(self.p.shape[1])

    @property
    def m(self) -> int:
        """Number of machines."""
        return int(self.p.shape[0])

    def __repr__(self) -> str:
        return (
            f"FlowshopInstance(name={self.name!r}, n={self.n}, m={self.m}, "
            f"seed={self.seed}, due_dates={self.due_dates!r})"
        )


def taillard_uniforms(seed: int) -> Iterator[float]:
    """Yield u = s / (2^31 - 1) after each step s <- 16807 s mod (2^31 - 1) of Taillard's generator.

    Taillard's unif(low, high) is floor(low + u * (high - low + 1)); his processing times are
    unif(1, 99) drawn machine-major from the instance's time seed.
    """
    if not 1 <= seed < PARK_MILLER_MODULUS:
        raise ValueError(f"Taillard seed must be in [1, {PARK_MILLER_MODULUS - 1}], got {seed}")
    state = seed
    while True:
        state = state * _PARK_MILLER_MULTIPLIER % PARK_MILLER_MODULUS
        yield state / PARK_MILLER_MODULUS


def taillard_due_dates(seed: int, p: np.ndarray) -> np.ndarray:
    """Liefooghe's due dates for a Taillard instance (rule reverse-engineered in flowshop/SOURCE.md).

    Skip the n*m draws of the processing times, then d_j = floor(a + u (b - a + 1)) with
    a = m pbar, b = (n + m - 1) pbar and pbar the mean processing time, in double precision.
    """
    m, n = p.shape
    uniforms = taillard_uniforms(seed)
    for _ in range(n * m):
        next(uniforms)
    pbar = float(np.sum(p, dtype=np.int64)) / (n * m)
    low, high = m * pbar, (n + m - 1) * pbar
    due = [math.floor(low + next(uniforms) * (high - low + 1)) for _ in range(n)]
    return np.array(due, dtype=np.int64)


def read_flowshop(path: str | os.PathLike[str]) -> FlowshopInstance:
    """Read a Liefooghe/ParadisEO or Taillard flowshop file; the format is detected from its first line."""
    path = Path(path)
    lines = _Lines(path, read_text(path))
    first = lines.peek()
    if first is not None and len(first[1]) == 1 and _INTEGER.fullmatch(first[1][0]):
        return _parse_liefooghe(lines)
    if first is not None and " ".join(first[1]).lower().startswith(_TAILLARD_HEADER):
        return _parse_taillard(lines)
    found = "an empty file" if first is None else excerpt(" ".join(first[1]))
    raise InstanceError(path, f"unknown format: {_FORMATS}, found {found}", 1 if first is None else first[0])


def resolve_instance(name_or_path: str) -> Path:
    """An existing file as is, else a bundled name such as "020_10_01" or "ta011"."""
    found = find_bundled(name_or_path, _SEARCH_FOLDERS, ("", ".txt"))
    if found is None:
        raise InstanceError(name_or_path, "no such instance file; give a path or a bundled name such as 020_10_01 "
                            "or ta011")
    return found


class _Lines:
    """A cursor over a file's non-blank lines that raises line-numbered InstanceErrors."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self._lines = list(token_lines(text))
        self._next = 0
        self.number = 0  # line number of the line last taken

    def peek(self) -> tuple[int, list[str]] | None:
        return self._lines[self._next] if self._next < len(self._lines) else None

    def take(self, what: str) -> list[str]:
        """The next non-blank line's tokens; `what` names the expected content if the file ends."""
        if self._next == len(self._lines):
            raise self.error(f"file ends early: expected {what}", self.number + 1)
        self.number, tokens = self._lines[self._next]
        self._next += 1
        return tokens

    def ints(self, k: int, what: str) -> list[int]:
        """The next line as exactly k non-negative integers; `what` names them in plural."""
        tokens = self.take(f"{k} {what}")
        if len(tokens) != k:
            raise self.error(f"expected {k} {what}, found {len(tokens)}: {excerpt(' '.join(tokens))}")
        values = []
        for token in tokens:
            if not _INTEGER.fullmatch(token):
                raise self.error(f"expected integer {what}, found {excerpt(token)}")
            if token.startswith("-") and token.strip("-0"):
                raise self.error(f"expected non-negative {what}, found {excerpt(token)}")
            values.append(integer(token, _MAX_VALUE))
            if values[-1] is None:
                raise self.error(f"expected at most {_MAX_VALUE} for {what}, found {excerpt(token)}")
        return values

    def one(self, what: str) -> int:
        """The next line as one non-negative integer; `what` names it in the singular."""
        return self.ints(1, f"value ({what})")[0]

    def at_least_one(self, value: int, what: str) -> int:
        """`value` if >= 1, else an error on the line last taken."""
        if value < 1:
            raise self.error(f"expected at least 1 {what}, found {value}")
        return value

    def end(self, after: str) -> None:
        """Raise if any non-blank line is left."""
        rest = self.peek()
        if rest is not None:
            found = " ".join(rest[1])
            raise self.error(f"expected end of file after {after}, found extra data {excerpt(found)}", rest[0])

    def error(self, message: str, line: int | None = None) -> InstanceError:
        return InstanceError(self.path, message, self.number if line is None else line)


def _parse_liefooghe(lines: _Lines) -> FlowshopInstance:
    """N, M, seed, then per job j: the index j, the due date d_j and the M processing times."""
    n = lines.at_least_one(lines.one("number of jobs N"), "job")
    m = lines.at_least_one(lines.one("number of machines M"), "machine")
    seed = lines.one("Taillard seed")
    due, times = [], []
    for j in range(n):
        index = lines.one(f"index of job {j}")
        if index != j:
            raise lines.error(f"expected job index {j}, found {index}")
        due.append(lines.one(f"due date of job {j}"))
        times.append(lines.ints(m, f"processing times for job {j}"))
    lines.end(f"the last job ({n - 1})")
    return FlowshopInstance(lines.path.stem, np.array(times, dtype=np.int64).T, np.array(due), seed, "file",
                            lines.path)


def _parse_taillard(lines: _Lines) -> FlowshopInstance:
    """Header words, "n m seed ub lb", "processing times :", then m rows of n times (machine-major)."""
    lines.take("the header line")
    n, m, seed, _ub, _lb = lines.ints(5, "values (jobs, machines, seed, upper bound, lower bound)")
    lines.at_least_one(n, "job")
    lines.at_least_one(m, "machine")
    if seed < 1 or seed >= PARK_MILLER_MODULUS:
        raise lines.error(f"expected a Taillard seed in [1, {PARK_MILLER_MODULUS - 1}], found {seed}")
    words = lines.take("the line 'processing times :'")
    if [word.lower() for word in words] != _TAILLARD_TIMES_WORDS:
        raise lines.error(f"expected the line 'processing times :', found {excerpt(' '.join(words))}")
    p = np.array([lines.ints(n, f"processing times for machine {i}") for i in range(m)], dtype=np.int64)
    lines.end(f"the last machine ({m - 1})")
    return FlowshopInstance(lines.path.stem, p, taillard_due_dates(seed, p), seed, "derived", lines.path)


def instance_table() -> tuple[str, list[str], list[list[str]]]:
    """The bundled flowshop instances: (title, columns, rows), for `mols instances`."""
    root = bundled_instances_dir() / "flowshop"
    rows = [[inst.name, inst.n, inst.m, inst.due_dates, path.relative_to(root)]
            for path in sorted(root.glob("*.txt")) + sorted(root.glob("*/*.txt")) for inst in [read_flowshop(path)]]
    return f"flowshop instances (-p flowshop) under {root}", ["name", "jobs", "machines", "due dates", "file"], rows
