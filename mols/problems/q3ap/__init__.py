"""The quadratic three-dimensional assignment problem (Q3AP), searched with swaps on a pair of permutations."""

from __future__ import annotations

from mols.problems.q3ap.instance import (
    Q3apInstance,
    from_nugent,
    instance_table,
    read_q3ap,
    resolve_q3ap,
    write_q3ap,
)
from mols.problems.q3ap.model import Q3ap


def load_q3ap(instance: str) -> Q3ap:
    return Q3ap(read_q3ap(resolve_q3ap(instance)))


__all__ = ["Q3ap", "Q3apInstance", "from_nugent", "instance_table", "load_q3ap", "read_q3ap", "write_q3ap"]
