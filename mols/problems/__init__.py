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
    published_front: Callable[[str], object] | None = None  # instance -> its exact Pareto front (P, k), or None


def _load_flowshop(instance: str) -> Flowshop:
    return Flowshop(read_flowshop(resolve_instance(instance)))


def _load_tsp(instance: str) -> Problem:
    from mols.problems.tsp.instance import load_tsp
    from mols.problems.tsp.model import Tsp

    return Tsp(load_tsp(instance))


def _load_bitsp(instance: str) -> Problem:
    from mols.problems.tsp.instance import TspPair, load_pair
    from mols.problems.tsp.model import Tsp

    return Tsp(TspPair(instance, load_pair(instance)))


def _load_qap(instance: str) -> Problem:
    from mols.problems.qap import load_qap

    return load_qap(instance)


def _load_mqap(instance: str) -> Problem:
    from mols.problems.qap import load_mqap

    return load_mqap(instance)


def _published_mqap_front(instance: str):
    from mols.problems.qap import published_front

    return published_front(instance)


# Adding a problem: its module (model, instance reader, Numba and CUDA kernels), its tests, and one entry here.
PROBLEMS = {
    "flowshop": ProblemEntry(_load_flowshop, "insertion"),
    "tsp": ProblemEntry(_load_tsp, "2opt"),
    "bitsp": ProblemEntry(_load_bitsp, "2opt"),
    "qap": ProblemEntry(_load_qap, "swap"),
    "mqap": ProblemEntry(_load_mqap, "swap", published_front=_published_mqap_front),
}


def problem_entry(name: str) -> ProblemEntry:
    try:
        return PROBLEMS[name]
    except KeyError:
        raise MolsError(f"unknown problem {name!r}; choose one of {', '.join(PROBLEMS)}") from None


def published_front(name: str, instance: str):
    """The exact Pareto front published for `instance` of problem `name` (F (P, k)), or None where
    there is none (reports then use the union of the runs' fronts alone)."""
    entry = PROBLEMS.get(name)
    return entry.published_front(instance) if entry and entry.published_front else None


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


__all__ = ["PROBLEMS", "Problem", "ProblemEntry", "check_permutation", "load_problem", "problem_entry",
           "published_front"]
