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
    instances: Callable[[], tuple[str, list[str], list[list]]] | None = None  # its bundled instances, as a table


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


def _flowshop_table():
    from mols.problems.flowshop.instance import instance_table

    return instance_table()


def _tsp_table():
    from mols.problems.tsp.instance import instance_table

    return instance_table()


def _qap_table(kind: str):
    from mols.problems.qap.instance import instance_table

    return instance_table(kind)


def _published_mqap_front(instance: str):
    from mols.problems.qap import published_front

    return published_front(instance)


# Adding a problem: its module (model, instance reader, Numba and CUDA kernels), its tests, and one entry here.
PROBLEMS = {
    "flowshop": ProblemEntry(_load_flowshop, "insertion", instances=_flowshop_table),
    "tsp": ProblemEntry(_load_tsp, "2opt", instances=_tsp_table),
    "bitsp": ProblemEntry(_load_bitsp, "2opt"),  # pairs of the tsp instances
    "qap": ProblemEntry(_load_qap, "swap", instances=lambda: _qap_table("qap")),
    "mqap": ProblemEntry(_load_mqap, "swap", published_front=_published_mqap_front, instances=lambda: _qap_table("mqap")),
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


__all__ = ["PROBLEMS", "Problem", "ProblemEntry", "load_problem", "problem_entry", "published_front"]
