"""Problems by name: each loads an instance file into a Problem the backends can evaluate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mols.errors import MolsError
from mols.problems.base import Problem
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


@dataclass(frozen=True)
class ProblemEntry:
    """How to load a problem from an instance (a path or a bundled name), and its usual neighborhood."""

    load: Callable[[str], Problem]
    neighborhood: str


def _load_flowshop(instance: str) -> Flowshop:
    return Flowshop(read_flowshop(resolve_instance(instance)))


# Adding a problem: its module (model, instance reader, Numba and CUDA kernels), its tests, and one entry here.
PROBLEMS = {
    "flowshop": ProblemEntry(_load_flowshop, "insertion"),
}


def problem_entry(name: str) -> ProblemEntry:
    try:
        return PROBLEMS[name]
    except KeyError:
        raise MolsError(f"unknown problem {name!r}; choose one of {', '.join(PROBLEMS)}") from None


def load_problem(name: str, instance: str) -> Problem:
    """The problem `name` on `instance` (a path, or the name of a bundled instance)."""
    return problem_entry(name).load(instance)


def check_permutation(x, n: int, what: str = "permutation"):
    """x as an int32 array if it is a permutation of 0..n-1, else a MolsError naming `what`."""
    import numpy as np

    arr = np.asarray(x)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer) or not np.array_equal(np.sort(arr), np.arange(n)):
        raise MolsError(f"{what} must be a permutation of 0..{n - 1} ({n} distinct integers), got {arr.ravel()[:12].tolist()}")
    return arr.astype(np.int32)


__all__ = ["PROBLEMS", "Problem", "ProblemEntry", "check_permutation", "load_problem", "problem_entry"]
