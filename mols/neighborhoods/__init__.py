"""Move spaces by name: insertion, swap and 2-opt on permutations; `Neighborhood` and `position_moves`
make others."""

from __future__ import annotations

from mols.errors import MolsError
from mols.neighborhoods.base import NO_KEYS, Neighborhood, position_moves
from mols.neighborhoods.insertion import INSERTION
from mols.neighborhoods.swap import SWAP
from mols.neighborhoods.two_opt import TWO_OPT

NEIGHBORHOODS = {nbh.name: nbh for nbh in (INSERTION, SWAP, TWO_OPT)}


def get_neighborhood(name: str) -> Neighborhood:
    try:
        return NEIGHBORHOODS[name]
    except KeyError:
        raise MolsError(f"unknown neighborhood {name!r}; choose one of {', '.join(NEIGHBORHOODS)}") from None


__all__ = ["NEIGHBORHOODS", "NO_KEYS", "Neighborhood", "get_neighborhood", "position_moves"]
