"""Problems by name: each loads an instance file into a Problem the backends can evaluate."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mols.errors import InstanceError, MolsError, OptionError
from mols.lazy import lazy_exports

if TYPE_CHECKING:
    from mols.problems.base import Problem


@dataclass(frozen=True)
class ProblemEntry:
    """How to load a problem from an instance (a path or a bundled name), its usual neighborhood, and the search a run
    without -a makes (PLS-1 for the multiobjective problems; for one objective, the best of mols' searches there)."""

    load: Callable[[str], Problem]
    neighborhood: str
    algorithm: str = "pls"
    published_front: Callable[[str], object] | None = None  # instance -> its exact Pareto front (P, k), or None
    instances: Callable[[], tuple[str, list[str], list[list]]] | None = None  # its bundled instances, as a table
    known: Callable[[str], float | None] | None = None  # bundled name -> the best-known value of its one objective


def _lazy(module: str, attr: str, *args) -> Callable:
    """A function that imports mols.problems.<module> only when called and calls its `attr` with args."""
    def call(*more):
        return getattr(importlib.import_module(f"mols.problems.{module}"), attr)(*args, *more)

    return call


# Adding a problem: its folder (model, instance reader, kernel set with its Numba and CUDA kernels), its tests,
# and one entry here.
PROBLEMS = {
    "flowshop": ProblemEntry(_lazy("flowshop", "load_flowshop"), "insertion", instances=_lazy("flowshop.instance", "instance_table")),
    "tsp": ProblemEntry(_lazy("tsp", "load_tsp"), "2opt", "ils", instances=_lazy("tsp.instance", "instance_table"),
                        known=_lazy("tsp.instance", "optimal_length")),
    "bitsp": ProblemEntry(_lazy("tsp", "load_bitsp"), "2opt"),  # pairs of the tsp instances
    "qap": ProblemEntry(_lazy("qap", "load_qap"), "swap", "its",
                        instances=_lazy("qap.instance", "instance_table", "qap"),
                        known=_lazy("qap.instance", "best_known_cost")),
    "mqap": ProblemEntry(_lazy("qap", "load_mqap"), "swap", published_front=_lazy("qap", "published_front"),
                         instances=_lazy("qap.instance", "instance_table", "mqap")),
    "q3ap": ProblemEntry(_lazy("q3ap", "load_q3ap"), "advanced", "its",
                         instances=_lazy("q3ap.instance", "instance_table"),
                         known=_lazy("q3ap.instance", "best_known_cost")),
    "ppp": ProblemEntry(_lazy("ppp", "load_ppp"), "hamming1", "its", instances=_lazy("ppp", "instance_table")),
    "coloring": ProblemEntry(_lazy("coloring", "load_coloring"), "change", "its",
                             instances=_lazy("coloring", "instance_table")),
    "weierstrass": ProblemEntry(_lazy("weierstrass", "load_weierstrass"), "crowns", "es",
                                instances=_lazy("weierstrass", "instance_table"),
                                known=_lazy("weierstrass.instance", "known_value")),
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


def known_best(name: str, instance: str) -> float | None:
    """The best-known value of the one objective of problem `name`'s bundled `instance` (the optimum where proven),
    None where mols knows none, or where `instance` names a file (which may not be the bundled one)."""
    entry = PROBLEMS.get(name)
    if entry is None or entry.known is None or exists(instance):
        return None
    return entry.known(instance)


def default_algorithm(name: str) -> str:
    """The search a run of problem `name` makes without an algorithm (ProblemEntry.algorithm; PLS-1 where unknown)."""
    entry = PROBLEMS.get(name)
    return entry.algorithm if entry else "pls"


def gap_percent(value: float, known: float) -> float:
    """How far `value` lies above the best-known value `known` (a minimum), in % of |known|."""
    return 100.0 * (value - known) / abs(known)


def load_problem(name: str, instance: str) -> Problem:
    """The problem `name` on `instance` (a path, or the name of a bundled instance). Where it fails but another
    problem has it bundled (tai12a without problem='qap') or reads the file, an OptionError that names that problem."""
    entry = problem_entry(name)
    try:
        return entry.load(instance)
    except InstanceError as err:
        is_file = exists(instance)
        owners = read_by(instance, name) if is_file else bundled_by(instance)
        if not owners:
            raise
        what, told = ("reads as a", f" (as {name}: {err})") if is_file else ("is a bundled", "")
        raise OptionError("problem", f"is {name}, and {instance} {what} {' and a '.join(owners)} instance: give "
                          f"{{problem}} {owners[0]}{told}", "problem") from None


def read_by(path: str, failed: str) -> list[str]:
    """The problems other than `failed` whose reader takes the file `path` (a hint for an error: nothing else)."""
    return [name for name, entry in PROBLEMS.items() if name != failed and Path(path).is_file() and reads(entry, path)]


def reads(entry: ProblemEntry, path: str) -> bool:
    try:
        entry.load(path)
    except MolsError:  # readers refuse a malformed file with a MolsError (tests/test_bad_inputs.py)
        return False
    return True


def exists(instance: str) -> bool:
    """Whether `instance` names a file or folder (False where the name cannot be one, too long for a path)."""
    try:
        return Path(instance).exists()
    except OSError:
        return False


def bundled_by(instance: str) -> list[str]:
    """The problems whose bundled instances list `instance` by name."""
    return [name for name, entry in PROBLEMS.items() if entry.instances and any(
        row and str(row[0]) == instance for row in entry.instances()[2])]


__getattr__, __dir__ = lazy_exports(__name__, {"Problem": "mols.problems.base"})
__all__ = ["PROBLEMS", "Problem", "ProblemEntry", "default_algorithm", "gap_percent", "known_best", "load_problem",
           "problem_entry", "published_front"]
