"""QAP instances: strict readers for QAPLIB (.dat, .sln) and Knowles-Corne mQAP (.dat, .PO) files, both read into
k flow matrices `a` (k, n, n) and one matrix `b` (n, n): f_k(p) = sum_ij a[k, i, j] b[p(i), p(j)]."""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, excerpt
from mols.problems.io import bundled_instances_dir, find_bundled, integer, read_text, token_lines

_MAX_VALUE = 2**30 - 1  # entries and their differences fit int32, the kernels' matrix type
_INTEGER = re.compile(r"[+-]?[0-9]+")
_PLAIN = re.compile(r"[0-9+\- \t\r\n\f\v]*")  # what _plain_integers reads (int() also takes '_' and '٣')
_HEADER = {key: re.compile(rf"{key}\s*[:=]\s*([0-9]+)") for key in ("facilities", "objectives")}
_BUNDLED = {"qap": ("qap", ".dat"), "mqap": ("mqap", ".dat")}


@dataclass(frozen=True, eq=False, repr=False)
class QapInstance:
    """k flow matrices a (k, n, n) sharing one matrix b (n, n); int64, read-only. k = 1 for QAPLIB."""

    name: str
    a: np.ndarray
    b: np.ndarray
    path: Path | None = None

    def __post_init__(self) -> None:
        a, b = np.array(self.a, dtype=np.int64), np.array(self.b, dtype=np.int64)
        if a.ndim != 3 or b.ndim != 2 or a.shape[1:] != b.shape or b.shape[0] != b.shape[1] or len(a) < 1:
            raise ValueError(f"need a of shape (k, n, n) and b of shape (n, n), got {a.shape} and {b.shape}")
        for arr, attr in ((a, "a"), (b, "b")):
            arr.setflags(write=False)
            object.__setattr__(self, attr, arr)

    @property
    def n(self) -> int:
        return int(self.b.shape[0])

    @property
    def k(self) -> int:
        return int(self.a.shape[0])

    @property
    def symmetric(self) -> bool:
        """Every flow matrix and b are symmetric (the kernels then read half as much)."""
        return bool(np.array_equal(self.b, self.b.T) and np.array_equal(self.a, self.a.transpose(0, 2, 1)))

    def __repr__(self) -> str:
        return f"QapInstance(name={self.name!r}, n={self.n}, k={self.k}, symmetric={self.symmetric})"


def resolve_qap(name_or_path: str, kind: str) -> Path:
    """An existing file as is, else a bundled name (tai12a, KC10-2fl-1uni) from the bundled qap or mqap folder."""
    folder, suffix = _BUNDLED[kind]
    found = find_bundled(name_or_path, (folder,), ("", suffix))
    if found is None:
        example = "tai12a" if kind == "qap" else "KC10-2fl-1uni"
        raise InstanceError(name_or_path, f"no such instance file; give a path or a bundled name such as {example}")
    return found


def bundled_qap_files(kind: str) -> list[Path]:
    """The bundled .dat files of kind qap or mqap, by name."""
    folder, suffix = _BUNDLED[kind]
    return sorted((bundled_instances_dir() / folder).glob(f"*{suffix}"))


def read_qaplib(path: str | os.PathLike[str]) -> QapInstance:
    """A QAPLIB .dat file: n, then the n x n matrices A and B."""
    path = Path(path)
    a, b = read_square_matrices(path, 2)
    return QapInstance(path.stem, a[None], b, path)


def read_square_matrices(path: Path, count: int) -> list[np.ndarray]:
    """A stream of integers n, then `count` n x n matrices (QAPLIB's layout; the Q3AP's with three)."""
    values, lines = _integers(path, read_text(path))
    if not values:
        raise InstanceError(path, f"empty file: expected the size n, then {count} n x n matrices")
    n = _size(path, values[0], "the size n", lines[0])
    return _matrices(path, values[1:], lines[1:], n, count, f"after n = {n}")


def read_mqap(path: str | os.PathLike[str]) -> QapInstance:
    """A Knowles-Corne mQAP .dat file: the header line, the distance matrix, then k flow matrices."""
    path = Path(path)
    text = read_text(path)
    header, _, rest = text.partition("\n")
    found = {key: pattern.search(header) for key, pattern in _HEADER.items()}
    missing = [key for key, match in found.items() if match is None]
    if missing:
        raise InstanceError(path, "the header line must give 'facilities: N' and 'objectives: K'; it has no "
                            f"{' and no '.join(map(repr, missing))}: {excerpt(header)}", 1)
    # bounded as every value is (int() refuses more than 4300 digits)
    n, k = _line_integers(path, [found[key].group(1) for key in ("facilities", "objectives")], 1)
    n = _size(path, n, "the number of facilities", 1)
    k = _size(path, k, "the number of objectives", 1, least=1)
    values, lines = _integers(path, rest, first_line=2)
    d, *flows = _matrices(path, values, lines, n, k + 1, f"after the header's 'facilities: {n}' and 'objectives: "
                          f"{k}' (the distance matrix, then a flow matrix per objective)")
    return QapInstance(path.stem, np.stack(flows), d, path)


def read_solution(path: str | os.PathLike[str]) -> tuple[int, int, np.ndarray]:
    """A QAPLIB .sln file: (n, cost, the permutation as written). Its convention varies by file
    (0- or 1-based, or the inverse permutation): instances/qap/SOURCE.md lists the exceptions."""
    path = Path(path)
    values, lines = _integers(path, read_text(path))
    if len(values) < 2:
        raise InstanceError(path, "expected n and the cost, then n positions")
    n = _size(path, values[0], "the size n", lines[0])
    if len(values) != n + 2:
        raise InstanceError(path, f"expected n = {n} positions after the cost, found {len(values) - 2}")
    return n, values[1], np.array(values[2:], dtype=np.int64)


def read_pareto_set(path: str | os.PathLike[str], n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """A Knowles-Corne .PO file: per line p(1) .. p(n) (1-based) and the k objectives.
    Returns the permutations X (P, n), 0-based, and their objectives F (P, k)."""
    path = Path(path)
    rows = []
    for number, tokens in token_lines(read_text(path)):
        values = _line_integers(path, tokens, number)
        if len(values) != n + k:
            raise InstanceError(path, f"expected {n} positions and {k} objectives, found {len(values)} numbers",
                                number)
        rows.append(values)
    table = np.array(rows, dtype=np.int64).reshape(-1, n + k)
    return (table[:, :n] - 1).astype(np.int32), table[:, n:]


def _integers(path: Path, text: str, first_line: int = 1) -> tuple[list[int], list[int]]:
    """Every whitespace-separated integer of text and the line each is on."""
    fast = _plain_integers(text, first_line)
    if fast is not None:
        return fast
    values, lines = [], []
    for number, tokens in token_lines(text, first_line):
        row = _line_integers(path, tokens, number)
        values += row
        lines += [number] * len(row)
    return values, lines


def _plain_integers(text: str, first_line: int) -> tuple[list[int], list[int]] | None:
    """_integers' result in one NumPy call where text holds only ASCII digits, signs and whitespace and every value
    is in range (each search of a task reads its instance); None otherwise, for the token-by-token reading to name
    what is wrong."""
    if _PLAIN.fullmatch(text) is None:
        return None
    try:
        values = np.array(text.split(), dtype=np.int64)
    except (ValueError, OverflowError):
        return None
    if values.size and np.abs(values).max() > _MAX_VALUE:
        return None
    counts = [len(line.split()) for line in text.split("\n")]
    return values.tolist(), np.repeat(np.arange(first_line, first_line + len(counts)), counts).tolist()


def _line_integers(path: Path, tokens: list[str], number: int) -> list[int]:
    row = []
    for token in tokens:
        if not _INTEGER.fullmatch(token):
            raise InstanceError(path, f"expected integers, found {excerpt(token)}", number)
        value = integer(token, _MAX_VALUE)
        if value is None:
            raise InstanceError(path, f"expected values within +-{_MAX_VALUE}, found {excerpt(token)}", number)
        row.append(value)
    return row


def _size(path: Path, value: int, what: str, line: int, least: int = 2) -> int:
    if value < least:
        raise InstanceError(path, f"expected {what} to be at least {least}, found {value}", line)
    return value


def _matrices(path: Path, values: list[int], lines: list[int], n: int, count: int, after: str) -> list[np.ndarray]:
    """`count` n x n matrices from exactly count * n^2 values, or an error saying what is short or extra."""
    expected = count * n * n
    if len(values) != expected:
        more = len(values) > expected
        why = "the first extra one is on this line" if more else "a matrix is short or missing"
        raise InstanceError(path, f"expected {count} matrices of {n} x {n} = {expected} integers {after}, found "
                            f"{len(values)}: {why}", lines[expected] if more else (lines[-1] if lines else None))
    return list(np.array(values, dtype=np.int64).reshape(count, n, n))


def instance_table(kind: str) -> tuple[str, list[str], list[list[str]]]:
    """The bundled QAPLIB (kind qap) or Knowles-Corne (mqap) instances, and whether their published
    solutions are there: (title, columns, rows), for `mols instances`."""
    read, reference = (read_qaplib, ".sln") if kind == "qap" else (read_mqap, ".PO")
    files = bundled_qap_files(kind)
    rows = [[inst.name, inst.n, inst.k, "yes" if inst.symmetric else "no",
             "yes" if path.with_suffix(reference).is_file() else "no"] for path in files for inst in [read(path)]]
    return (f"{kind} instances (-p {kind}) under {files[0].parent if files else kind}",
            ["name", "facilities", "objectives", "symmetric", f"{reference} file"], rows)


def best_known_costs() -> dict[str, int]:
    """The best-known (or optimal) costs of the bundled QAPLIB instances by name (instances/qap/qap_bks.csv)."""
    with (bundled_instances_dir() / "qap" / "qap_bks.csv").open(newline="") as f:
        return {row["name"]: int(row["best_known"]) for row in csv.DictReader(f)}


def best_known_cost(name: str) -> int | None:
    """best_known_costs()'s value for a bundled instance, else None."""
    return best_known_costs().get(name)
