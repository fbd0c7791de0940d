"""PPP instances: the seeded generator (a planted secret), the text format's writer and strict reader (format:
mols/instances/ppp/SOURCE.md), and names: `M-N` is generate(M, N, seed=1), `M-N-sSEED` another seed, else a path."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, MolsError, excerpt
from mols.memory import check_fits, nbytes
from mols.problems.io import find_bundled, is_file, read_text, token_lines, whole_number

DEFAULT_SEED = 1  # the seed of the bundled names (73-73 is generate(73, 73, 1))
# The sizes m-n of the papers (Pointcheval 1995; Knudsen and Meier 1999; Luong et al. 2009, Tables 2 and 3: all
# sixteen; Luong et al. 2013, Tables 3 and 4: nine of them, PAPER_2013_SIZES).
PAPER_SIZES = ("73-73", "81-81", "101-101", "101-117", "201-217", "301-317", "401-417", "501-517", "601-617",
               "701-717", "801-817", "901-917", "1001-1017", "1101-1117", "1201-1217", "1301-1317")
PAPER_2013_SIZES = ("73-73", "81-81", "101-117", "201-217", "401-417", "601-617", "801-817", "1001-1017", "1301-1317")
_NAME = re.compile(r"([0-9]+)-([0-9]+)(?:-s([0-9]+))?")
_MAX_SIZE = 2**31 - 1  # m and n beyond any instance a run could search; int() never reads thousands of digits
_MAX_SEED = 2**64 - 1
_PLUS, _MINUS = ord("+"), ord("-")
_NO_SIGNS = str.maketrans("", "", "+-")  # deletes the signs: what is left of a row is wrong


@dataclass(frozen=True, eq=False, repr=False)
class PppInstance:
    """A (m, n) int8 of +-1, s (m,) int32 sorted (the multiset S), v (n,) int8 of +-1 (a known solution)
    or None; arrays are read-only. seed: the generator's, where it made the instance."""

    name: str
    a: np.ndarray
    s: np.ndarray
    v: np.ndarray | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        a, s = np.array(self.a, dtype=np.int8), np.sort(np.array(self.s, dtype=np.int32))
        if a.ndim != 2 or min(a.shape) < 1 or not np.isin(a, (-1, 1)).all() or s.shape != (a.shape[0],):
            raise ValueError(f"need A (m, n) of +-1 and S of m values, got shapes {a.shape} and {s.shape}")
        if s[0] < 0 or s[-1] > a.shape[1]:
            raise ValueError(f"S must lie in 0..n = {a.shape[1]}, got {s[0]}..{s[-1]}")
        arrays = {"a": a, "s": s}
        if self.v is not None:
            arrays["v"] = np.array(self.v, dtype=np.int8)
            if arrays["v"].shape != (a.shape[1],) or not np.isin(arrays["v"], (-1, 1)).all():
                raise ValueError(f"need V of n = {a.shape[1]} entries +-1")
        for attr, arr in arrays.items():
            arr.setflags(write=False)
            object.__setattr__(self, attr, arr)

    @property
    def m(self) -> int:
        return int(self.a.shape[0])

    @property
    def n(self) -> int:
        return int(self.a.shape[1])

    @property
    def histogram(self) -> np.ndarray:
        """(n + 1,) int32: entry j counts the values of S equal to j."""
        return np.bincount(self.s, minlength=self.n + 1).astype(np.int32)

    def product(self, v: np.ndarray) -> np.ndarray:
        """A V (m,) int32 for an epsilon-vector v."""
        return (self.a * np.asarray(v, dtype=np.int8)).sum(axis=1, dtype=np.int32)

    def solves(self, v: np.ndarray) -> bool:
        """Whether the epsilon-vector v solves the PPP: A V >= 0 and, as multisets, A V = S."""
        y = self.product(v)
        return bool((y >= 0).all() and np.array_equal(np.sort(y), self.s))

    def __repr__(self) -> str:
        return f"PppInstance(name={self.name!r}, m={self.m}, n={self.n}, seed={self.seed})"


def instance_name(m: int, n: int, seed: int) -> str:
    return f"{m}-{n}" if seed == DEFAULT_SEED else f"{m}-{n}-s{seed}"


def generate(m: int, n: int, seed: int = DEFAULT_SEED) -> PppInstance:
    """A random instance with a planted solution: V and A' uniform epsilon-vector and matrix, A = A' with
    the rows i where (A'V)_i < 0 negated (so A V >= 0), S = the values of A V. Every (A V)_i has the
    parity of n: with n odd (all the papers' sizes), S lies in 1..n."""
    name = instance_name(m, n, seed)
    if m < 1 or n < 1 or seed < 0:
        raise MolsError(f"ppp {name}: need m >= 1 rows, n >= 1 columns and a seed >= 0")
    check_fits(3 * nbytes((m, n), np.int8), f"ppp {name}: the {m} x {n} matrix A")
    rng = np.random.default_rng(seed)
    v = 2 * rng.integers(0, 2, n, dtype=np.int8) - 1
    a = 2 * rng.integers(0, 2, (m, n), dtype=np.int8) - 1
    a[(a * v).sum(axis=1, dtype=np.int32) < 0] *= -1
    return PppInstance(name, a, (a * v).sum(axis=1, dtype=np.int32), v, seed)


def load_instance(name: str) -> PppInstance:
    """An existing file as is, else a name M-N or M-N-sSEED (generated), else a file in instances/ppp."""
    match = _NAME.fullmatch(name)
    if match and not is_file(name):
        m, n, seed = (whole_number(group or str(DEFAULT_SEED), limit)
                      for group, limit in zip(match.groups(), (_MAX_SIZE, _MAX_SIZE, _MAX_SEED)))
        if None in (m, n, seed):
            raise MolsError(f"ppp {excerpt(name)}: M-N-sSEED takes M and N up to {_MAX_SIZE}, SEED up to "
                            f"{_MAX_SEED}")
        return generate(m, n, seed)
    path = find_bundled(name, ("ppp",), ("", ".ppp"))
    if path is None:
        raise InstanceError(name, "no such instance file; give a path or a size M-N such as 73-73 (generated "
                            f"with seed {DEFAULT_SEED}; M-N-sSEED: another seed)")
    return read_ppp(path)


def signs(v: np.ndarray) -> str:
    """An epsilon-vector as text: + for +1, - for -1."""
    return np.where(np.asarray(v) > 0, _PLUS, _MINUS).astype(np.uint8).tobytes().decode("ascii")


def write_ppp(instance: PppInstance, path: str | os.PathLike[str]) -> Path:
    """Write the instance in the format read_ppp reads (the planted V last, where known); the path."""
    path = Path(path)
    made = f", generated by mols: generate(m={instance.m}, n={instance.n}, seed={instance.seed})" \
        if instance.seed is not None else ""
    lines = ["# permuted perceptron problem, mols ppp format: the line 'm n'; A as m lines of n signs (+ is +1,",
             "# - is -1); the multiset S (m integers); optionally a solution V (n signs)",
             f"# instance {instance.name}{made}", f"{instance.m} {instance.n}",
             *(signs(row) for row in instance.a), " ".join(map(str, instance.s.tolist()))]
    if instance.v is not None:
        lines.append(signs(instance.v))
    try:
        path.write_text("\n".join(lines) + "\n")
    except OSError as err:
        raise MolsError(f"cannot write {path}: {err.strerror or err}") from None
    return path


def read_ppp(path: str | os.PathLike[str]) -> PppInstance:
    """A PPP file (module docstring); InstanceError naming the file and line for anything malformed."""
    path = Path(path)
    lines = [(number, tokens) for number, tokens in token_lines(read_text(path)) if not tokens[0].startswith("#")]
    if not lines:
        raise InstanceError(path, "empty file: expected 'm n', then m rows of n signs and the m values of S")
    m, n = _sizes(path, *lines[0])
    if len(lines) < m + 2:
        last = lines[-1][0]
        raise InstanceError(path, f"expected m = {m} rows of A and then the line of S; the file ends after "
                            f"{len(lines) - 1} more lines", last)
    if len(lines) > m + 3:
        raise InstanceError(path, f"unexpected line after S and V: {excerpt(' '.join(lines[m + 3][1]))}",
                            lines[m + 3][0])
    a = np.stack([_sign_line(path, number, tokens, n, f"row {i + 1} of A")
                  for i, (number, tokens) in enumerate(lines[1:m + 1])])
    s = _values(path, *lines[m + 1], m, n)
    v = _sign_line(path, *lines[m + 2], n, "the solution V") if len(lines) == m + 3 else None
    instance = PppInstance(path.stem, a, s, v)
    if v is not None and not instance.solves(v):
        raise InstanceError(path, "the solution V does not solve the instance (A V has a negative entry or "
                            "differs from S as a multiset)", lines[m + 2][0])
    return instance


def _sizes(path: Path, number: int, tokens: list[str]) -> tuple[int, int]:
    sizes = [whole_number(token, _MAX_SIZE) for token in tokens]
    if len(sizes) != 2 or None in sizes or 0 in sizes:
        raise InstanceError(path, f"expected 'm n' (two whole numbers in 1..{_MAX_SIZE}), found "
                            f"{excerpt(' '.join(tokens))}", number)
    return sizes[0], sizes[1]


def _sign_line(path: Path, number: int, tokens: list[str], n: int, what: str) -> np.ndarray:
    """The line's n signs as an int8 vector of +-1."""
    text = " ".join(tokens)
    others = text.translate(_NO_SIGNS)
    if others or len(text) != n:
        found = f"{others[0]!r} is not a sign" if others else f"found {len(text)}"
        raise InstanceError(path, f"{what}: expected {n} signs + or - with no spaces; {found}", number)
    return np.where(np.frombuffer(text.encode("ascii"), dtype=np.uint8) == _PLUS, 1, -1).astype(np.int8)


def _values(path: Path, number: int, tokens: list[str], m: int, n: int) -> list[int]:
    """The m values of S: integers in 0..n with the parity of n (every (A V)_i is a sum of n terms +-1)."""
    if len(tokens) != m:
        raise InstanceError(path, f"S: expected m = {m} integers on one line, found {len(tokens)}", number)
    values = [whole_number(token, n) for token in tokens]
    for token, value in zip(tokens, values):
        if value is None or (value - n) % 2:
            raise InstanceError(path, f"S: {excerpt(token)} is not a possible value of (A V)_i: an integer in "
                                f"0..n = {n} with the parity of n", number)
    return values
