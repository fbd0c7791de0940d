"""Move spaces by name: insertion, swap and 2-opt on permutations, Hamming 1, 2 and 3 on bit vectors, crowns around
real vectors, basic and advanced swaps on pairs of permutations (the Q3AP's), and the change of one variable (made
per problem, for its k values); `Neighborhood` and `position_moves` make others."""

from __future__ import annotations

from mols.errors import MolsError
from mols.neighborhoods.base import NO_KEYS, Neighborhood, position_moves
from mols.neighborhoods.crowns import CROWNS
from mols.neighborhoods.hamming import HAMMING1, HAMMING2, HAMMING3
from mols.neighborhoods.insertion import INSERTION
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.neighborhoods.swap import SWAP
from mols.neighborhoods.two_opt import TWO_OPT

NEIGHBORHOODS = {nbh.name: nbh for nbh in (INSERTION, SWAP, TWO_OPT, HAMMING1, HAMMING2, HAMMING3, CROWNS,
                                             BASIC, ADVANCED)}
# Neighborhoods that depend on the instance: the problem makes them (Problem.neighborhood).
MADE_BY_PROBLEM = {"change": "the change of a variable to another of its k values depends on k"}
NAMES = (*NEIGHBORHOODS, *MADE_BY_PROBLEM)  # every name a run may give


def get_neighborhood(name: str) -> Neighborhood:
    if name in MADE_BY_PROBLEM:
        raise MolsError(f"the {name} neighborhood is made by the problem that uses it: {MADE_BY_PROBLEM[name]}")
    try:
        return NEIGHBORHOODS[name]
    except KeyError:
        raise MolsError(f"unknown neighborhood {name!r}; choose one of {', '.join(NAMES)}") from None


__all__ = ["MADE_BY_PROBLEM", "NAMES", "NEIGHBORHOODS", "NO_KEYS", "Neighborhood", "get_neighborhood", "position_moves"]
