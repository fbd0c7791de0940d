"""Problems by name: each loads an instance file into a Problem the backends can evaluate."""

from __future__ import annotations

from mols.errors import MolsError
from mols.problems.base import Problem
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


def _load_flowshop(instance: str) -> Flowshop:
    return Flowshop(read_flowshop(resolve_instance(instance)))


PROBLEMS = {"flowshop": _load_flowshop}


def load_problem(name: str, instance: str) -> Problem:
    """The problem `name` on `instance` (a path, or the name of a bundled instance)."""
    try:
        loader = PROBLEMS[name]
    except KeyError:
        raise MolsError(f"unknown problem {name!r}; choose one of {', '.join(PROBLEMS)}") from None
    return loader(instance)


def check_permutation(x, n: int, what: str = "permutation"):
    """x as an int32 array if it is a permutation of 0..n-1, else a MolsError naming `what`."""
    import numpy as np

    arr = np.asarray(x)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer) or not np.array_equal(np.sort(arr), np.arange(n)):
        raise MolsError(f"{what} must be a permutation of 0..{n - 1} ({n} distinct integers), got {arr.ravel()[:12].tolist()}")
    return arr.astype(np.int32)


__all__ = ["PROBLEMS", "Problem", "check_permutation", "load_problem"]
