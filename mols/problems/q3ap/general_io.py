"""The general Q3AP's files, read strictly (errors name the file and its line, or the array) and written back: a text
file, 'general N' then b and C as integers, or a NumPy .npz holding the arrays b and C (instances/q3ap/SOURCE.md)."""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, excerpt, reason
from mols.memory import check_fits, host_array, nbytes
from mols.problems.io import integer, read_text, token_lines, whole_number
from mols.problems.q3ap.general import COST, MAX_VALUE, Q3apGeneralInstance, check_costs_fit, costs_text
from mols.problems.q3ap.instance import Q3apInstance, read_q3ap

KIND = "general"  # the first word of a general text file (a product-form file starts with n)
MAX_N = 9999  # the largest n a header may state (any n past a few dozen is then refused for its memory)
ZIP_MAGIC = b"PK\x03\x04"  # how an .npz file starts
ARRAYS = {"b": 3, "C": 6}  # the arrays of an .npz file and their dimensions
_ROW = re.compile(r"[+-]?[0-9]{1,10}(?: [+-]?[0-9]{1,10})*")  # a line's tokens joined by spaces, each short
_INTEGER = re.compile(r"[+-]?[0-9]+")


def read_instance(path: str | os.PathLike[str]) -> Q3apInstance | Q3apGeneralInstance:
    """A Q3AP file of either form: an .npz archive or a text file starting with 'general' (the general form),
    else the product form's n and three matrices (instance.py)."""
    path = Path(path)
    if _starts_with_zip(path):
        return read_general_npz(path)
    text = read_text(path)
    first = next(token_lines(text), None)
    if first is not None and first[1][0].lower() == KIND:
        return read_general_text(path, text)
    return read_q3ap(path)


def _starts_with_zip(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except OSError:
        return False  # read_text names what is wrong with the file


def read_general_text(path: Path, text: str) -> Q3apGeneralInstance:
    """'general N' on the first line, then n^3 integers b[i, j, l] and n^6 integers C[i, j, l, t, k, m], the last
    index fastest, in rows of any length (blank lines ignored)."""
    lines = token_lines(text)
    number, tokens = next(lines)
    n = whole_number(tokens[1], MAX_N) if len(tokens) == 2 else None
    if n is None or n < 2:
        raise InstanceError(path, f"the first line must be '{KIND} N' with the size N in 2..{MAX_N}, found "
                            f"{excerpt(' '.join(tokens))}", number)
    values = host_array(n ** 3 + n ** 6, COST, f"{path}:{number}: {costs_text(n)}")
    expected = f"expected n^3 + n^6 = {len(values):,} integers after '{KIND} {n}' (b, then C)"
    filled, last = 0, number
    for number, tokens in lines:
        row = _row(path, tokens, number)
        if filled + len(row) > len(values):
            raise InstanceError(path, f"{expected}: this line holds the first extra one", number)
        values[filled:filled + len(row)] = row
        filled, last = filled + len(row), number
    if filled < len(values):
        short = "b" if filled < n ** 3 else "C"
        raise InstanceError(path, f"{expected}, found {filled:,}: {short} is short", last)
    return Q3apGeneralInstance(path.stem, values[:n ** 3].reshape((n,) * 3), values[n ** 3:].reshape((n,) * 6), path)


def _row(path: Path, tokens: list[str], number: int) -> np.ndarray:
    """A line's integers, each within +-MAX_VALUE, or an error naming the first bad token (short tokens are parsed
    by NumPy at once; any other line token by token)."""
    if _ROW.fullmatch(" ".join(tokens)):
        row = np.array(tokens, dtype=np.int64)
        if np.abs(row).max() <= MAX_VALUE:
            return row
    return np.array([_value(path, token, number) for token in tokens], dtype=np.int64)


def _value(path: Path, token: str, number: int) -> int:
    if not _INTEGER.fullmatch(token):
        raise InstanceError(path, f"expected integers, found {excerpt(token)}", number)
    value = integer(token, MAX_VALUE)
    if value is None:
        raise InstanceError(path, f"expected values within +-{MAX_VALUE}, found {excerpt(token)}", number)
    return value


def read_general_npz(path: Path) -> Q3apGeneralInstance:
    """An .npz archive of exactly the integer arrays b (n, n, n) and C (n, n, n, n, n, n): their headers are checked,
    and the memory they need, before they are read."""
    headers = _npz_headers(path)
    n = headers["b"][0][0] if headers["b"][0] else 0
    for name, (shape, dtype) in headers.items():
        if dtype.kind not in "iu":
            raise InstanceError(path, f"array {name!r}: expected integers, found dtype {dtype}")
        if n < 2 or shape != (n,) * ARRAYS[name]:
            raise InstanceError(path, f"array {name!r}: expected the shape (n,) * {ARRAYS[name]} with n >= 2 the "
                                f"size of b, found {shape}")
    check_costs_fit(n, str(path))
    stored = sum(nbytes(shape, dtype) for shape, dtype in headers.values())
    check_fits(stored + nbytes((n,) * 6, COST), f"{path}: reading {costs_text(n)} from {stored:,} bytes")
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in ARRAYS}
    for name, array in arrays.items():
        if int(array.max()) > MAX_VALUE or int(array.min()) < -MAX_VALUE:
            at = np.unravel_index(np.argmax((array > MAX_VALUE) | (array < -MAX_VALUE)), array.shape)
            raise InstanceError(path, f"array {name!r}: expected values within +-{MAX_VALUE}, found "
                                f"{int(array[at])} at index {tuple(map(int, at))}")
    return Q3apGeneralInstance(path.stem, arrays["b"], arrays["C"], path)


def _npz_headers(path: Path) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Each array's (shape, dtype), read from the archive's .npy headers; an error unless the arrays are b and C."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.namelist()
            found = sorted(name.removesuffix(".npy") for name in members)
            if found != sorted(ARRAYS):
                raise InstanceError(path, f"expected the arrays b and C, found {', '.join(found) or 'none'}")
            return {name: _npy_header(archive, f"{name}.npy") for name in ARRAYS}
    except (zipfile.BadZipFile, ValueError, EOFError) as err:
        raise InstanceError(path, f"not a NumPy .npz archive of b and C: {err}") from None
    except OSError as err:
        raise InstanceError(path, f"cannot read the file: {reason(err)}") from None


def _npy_header(archive: zipfile.ZipFile, member: str) -> tuple[tuple[int, ...], np.dtype]:
    with archive.open(member) as f:
        version = np.lib.format.read_magic(f)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _fortran, dtype = read(f)
    return tuple(int(d) for d in shape), np.dtype(dtype)


def write_general(instance: Q3apGeneralInstance, path: str | os.PathLike[str]) -> None:
    """The instance as read_instance reads it: an .npz archive where the path ends in .npz, else the text form
    (b as n^2 rows of n, a blank line, then C as n^5 rows of n)."""
    path = Path(path)
    if path.suffix == ".npz":
        np.savez_compressed(path, b=instance.b, C=instance.c)
        return
    n = instance.n
    with path.open("w") as f:
        f.write(f"{KIND} {n}\n\n")
        np.savetxt(f, instance.b.reshape(-1, n), fmt="%d")
        f.write("\n")
        np.savetxt(f, instance.c.reshape(-1, n), fmt="%d")
