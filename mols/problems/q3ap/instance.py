"""Q3AP instances in product form, f(p, q) = sum_{i, t} A[i, t] B[p(i), p(t)] E[q(i), q(t)]: their file format
and the construction from QAPLIB's Nugent data, A = F, B = E = D (mols/instances/q3ap/SOURCE.md)."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError
from mols.problems.io import bundled_instances_dir, find_bundled
from mols.problems.qap.instance import QapInstance, read_square_matrices


@dataclass(frozen=True, eq=False, repr=False)
class Q3apInstance:
    """A (pairs of positions), B (values of p) and E (values of q), each (n, n), int64, read-only."""

    name: str
    a: np.ndarray
    b: np.ndarray
    e: np.ndarray
    path: Path | None = None

    def __post_init__(self) -> None:
        for attr in ("a", "b", "e"):
            arr = np.array(getattr(self, attr), dtype=np.int64)
            if arr.ndim != 2 or arr.shape != (len(self.a), len(self.a)):
                raise ValueError(f"{attr} must be a square matrix of the size of a, got shape {arr.shape}")
            arr.setflags(write=False)
            object.__setattr__(self, attr, arr)

    @property
    def n(self) -> int:
        return int(self.a.shape[0])

    @property
    def symmetric(self) -> bool:
        """A, B and E are all symmetric (each pair of positions then counts twice the same)."""
        return all(np.array_equal(m, m.T) for m in (self.a, self.b, self.e))

    def __repr__(self) -> str:
        return f"Q3apInstance(name={self.name!r}, n={self.n}, symmetric={self.symmetric})"


def read_q3ap(path: str | os.PathLike[str]) -> Q3apInstance:
    """A Q3AP .dat file: n, then A, B and E (module docstring)."""
    path = Path(path)
    a, b, e = read_square_matrices(path, 3)
    return Q3apInstance(path.stem, a, b, e, path)


def write_q3ap(instance: Q3apInstance, path: str | os.PathLike[str]) -> None:
    """The instance as read_q3ap reads it: n, a blank line, then A, B and E, a blank line after each."""
    blocks = ["\n".join(" ".join(str(v) for v in row) for row in m) for m in (instance.a, instance.b, instance.e)]
    Path(path).write_text(f"{instance.n}\n\n" + "\n\n".join(blocks) + "\n")


def from_nugent(qap: QapInstance) -> Q3apInstance:
    """The Q3AP of a QAPLIB Nugent instance (its a: the distances D, its b: the flows F): A = F, B = E = D."""
    return Q3apInstance(qap.name, qap.b, qap.a[0], qap.a[0])


def resolve_q3ap(name_or_path: str) -> Path:
    """An existing file as is, else a bundled name (nug12) from the bundled q3ap folder."""
    found = find_bundled(name_or_path, ("q3ap",), ("", ".dat"))
    if found is None:
        raise InstanceError(name_or_path, "no such instance file; give a path or a bundled name such as nug12")
    return found


def instance_table() -> tuple[str, list[str], list[list]]:
    """The bundled Q3AP instances and their best-known values (q3ap_bks.csv), for `mols instances`."""
    folder = bundled_instances_dir() / "q3ap"
    known = best_known()
    rows = [[inst.name, inst.n, "yes" if inst.symmetric else "no", known.get(inst.name, "")]
            for inst in map(read_q3ap, sorted(folder.glob("*.dat")))]
    return f"q3ap instances (-p q3ap) under {folder}", ["name", "size", "symmetric", "best known"], rows


def best_known() -> dict[str, int]:
    """Best-known values of the bundled instances (instances/q3ap/q3ap_bks.csv: our own long runs)."""
    path = bundled_instances_dir() / "q3ap" / "q3ap_bks.csv"
    if not path.is_file():
        return {}
    with path.open(newline="") as f:
        return {row["name"]: int(row["best_known"]) for row in csv.DictReader(f)}


def best_known_cost(name: str) -> int | None:
    """best_known()'s value for a bundled instance, else None."""
    return best_known().get(name)
