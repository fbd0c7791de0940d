"""The model contract: a problem is its instance, solution kind, objectives and reference evaluation; its kernels
are a separate kernel set (kernels.py)."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from mols.encodings import Encoding
from mols.errors import MolsError, OptionError
from mols.neighborhoods import Neighborhood, get_neighborhood
from mols.problems.kernels import KernelSet

INT32_MAX, INT64_MAX = int(np.iinfo(np.int32).max), int(np.iinfo(np.int64).max)


@dataclass(frozen=True)
class Defaults:
    """What a problem suggests to the searches on a neighborhood (Problem.defaults), None where it has no view:
    the tabu tenure of tabu search and ITS (their own: n; ITS n / 2), and the range [low, high] from which ITS
    without --strength draws each perturbation's number of random changes (its own: n / 5, at least 2)."""

    tenure: int | None = None
    perturbation: tuple[int, int] | None = None


NO_DEFAULTS = Defaults()


def integer_dtype(bound: int, what: str) -> np.dtype:
    """The objective dtype for values proved to stay within +-bound (a Python int, computed from the
    data): int32 where it fits, else int64; MolsError naming `what` where even int64 could overflow."""
    if bound > INT64_MAX:
        raise MolsError(f"{what}: objective values could reach {bound:.3g}, beyond the 64-bit integers mols "
                        f"computes with ({INT64_MAX:.3g}); scale the data down")
    return np.dtype(np.int32 if bound <= INT32_MAX else np.int64)


class Problem(ABC):
    """A problem whose neighborhoods the backends evaluate whole. Subclass it to bring your own.

    What a subclass sets: `name`, `objectives` (all minimised), `n` (the size the neighborhoods see),
    `dtype` (of the objective values: int32, int64 or float64), `encoding` (its solution kind),
    `instance` (anything with a `.name`, which results folders show as the instance's name), and
    `kernel_set`: the KernelSet subclass (problems/kernels.py) that gives the backends its kernels.

    What it implements: `_evaluate(X)`, the reference evaluation of a batch X (B, encoding.size) -> F (B, n_obj),
    plain and obviously right (NumPy; kernels are tested against it); to optimise a subset of its objectives
    (--objectives, `with_objectives`), `_project(columns)`. What it may declare for the searches: `neighborhoods`
    (those its kernels support), `target`, and `defaults(nbh)` (its literature's tabu tenure and perturbation).
    """

    name: str
    instance: Any  # the parsed instance; it has a .name
    objectives: tuple[str, ...]
    n: int
    dtype: np.dtype
    encoding: Encoding
    kernel_set: ClassVar[type[KernelSet]]
    neighborhoods: tuple[str, ...] | None = None  # the neighborhoods its kernels support; None: every one
    target: float | None = None  # one objective: a value that ends a search when reached (PPP: 0, a solution)
    objective_aliases: ClassVar[dict[str, str]] = {}  # other names --objectives takes for objectives: alias -> name
    _full: Problem | None = None  # set by with_objectives: the problem with all its objectives

    @cached_property
    def kernels(self) -> KernelSet:
        """Its kernel set, made on first use."""
        return self.kernel_set(self)

    def __copy__(self) -> Problem:
        """A shallow copy, whose kernel set (where made) is a shallow copy bound to it: a kernel set reads its
        problem's fields, and what was set on it (tuned threads per move) stays with the copy."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        if "kernels" in self.__dict__:
            clone.kernels = copy.copy(self.kernels)
            clone.kernels.problem = clone
        return clone

    def evaluate(self, X) -> np.ndarray:
        """Reference evaluation: one solution (size,) -> (n_obj,), or a batch (B, size) -> (B, n_obj), as dtype."""
        X = np.asarray(X)
        batch = X[None] if X.ndim == 1 else X
        if batch.ndim != 2 or batch.shape[1] != self.encoding.size:
            raise MolsError(f"{self.name}: expected solutions of {self.encoding.size} values, got an array of shape "
                            f"{X.shape}")
        F = np.asarray(self._evaluate(batch)).astype(self.dtype)
        return F[0] if X.ndim == 1 else F

    @abstractmethod
    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        """The reference evaluation of a batch X (B, size) -> F (B, n_obj)."""

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """The objective vector (n_obj,) of one solution, as the searches need it; a problem may
        override this with a faster path, tested against `evaluate`."""
        return self.evaluate(x)

    @property
    def full(self) -> Problem:
        """This problem with all its objectives (itself, unless with_objectives made it): results folders
        evaluate the archive's solutions with it, so that front.csv lists every objective."""
        return self._full or self

    def with_objectives(self, names: Sequence[str] | None) -> Problem:
        """The problem that optimises `names` (objectives of `full`, or their aliases), in that order: its
        `objectives` are those names and every evaluation gives their columns, kernels included. None: this
        problem as it is; all the objectives in their order: `full`. OptionError naming the objectives for an unknown
        or repeated name."""
        if names is None:
            return self
        full = self.full
        valid = ", ".join(full.objectives)
        if not names:
            raise OptionError("objectives", f": give one or more of {valid}")
        chosen = [full.objective_aliases.get(name, name) for name in names]
        for name, canonical in zip(names, chosen):
            if canonical not in full.objectives:
                raise OptionError("objectives", f": the {full.name} problem has no objective {name!r}; choose among "
                                  f"{valid}")
            if chosen.count(canonical) > 1:
                raise OptionError("objectives", f": {canonical} is given more than once; choose each once among "
                                  f"{valid}")
        columns = tuple(full.objectives.index(name) for name in chosen)
        if columns == tuple(range(full.n_obj)):
            return full
        projected = full._project(columns)
        projected.objectives, projected._full = tuple(chosen), full
        return projected

    def _project(self, columns: tuple[int, ...]) -> Problem:
        """A problem whose evaluations (reference and kernels) give the columns `columns` of this one's, in
        that order (with_objectives then names its objectives). By default: none (OptionError)."""
        raise OptionError("objectives", f": the {self.name} problem optimises all its objectives "
                          f"({', '.join(self.objectives)}) only")

    def neighborhood(self, name: str) -> Neighborhood:
        """The neighborhood called `name` on this problem. A problem whose moves depend on its instance (the
        change of a variable to another of its k values) makes it here."""
        return get_neighborhood(name)

    def defaults(self, nbh: Neighborhood) -> Defaults:
        """What it suggests to the searches on `nbh` where no option says otherwise (none by default)."""
        return NO_DEFAULTS

    def random_solution(self, rng: np.random.Generator) -> np.ndarray:
        return self.encoding.random(rng)

    @property
    def n_obj(self) -> int:
        return len(self.objectives)

    @property
    def instance_name(self) -> str:
        """The instance's name, as results folders and reports show it."""
        return self.instance.name
