"""Permutation flowshop with due dates: instances and objectives."""

from __future__ import annotations

from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


def load_flowshop(instance: str) -> Flowshop:
    """The flowshop of `instance`: a path, or a bundled name such as 020_10_01 or ta011."""
    return Flowshop(read_flowshop(resolve_instance(instance)))


__all__ = ["Flowshop", "load_flowshop"]
