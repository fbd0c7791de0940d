"""Move spaces by name (permutations, bit vectors, real vectors, pairs of permutations, one variable's change);
`Neighborhood` and `position_moves` make others. A neighborhood's module is imported when it is first used."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mols.errors import MolsError
from mols.lazy import lazy_exports

if TYPE_CHECKING:
    from mols.neighborhoods.base import Neighborhood

# name -> (module under mols.neighborhoods, its attribute): insertion, swap, 2-opt and 3-exchange on permutations,
# Hamming 1, 2 and 3 on bit vectors, crowns and adaptive steps around real vectors, basic and advanced swaps on pairs of permutations
# (the Q3AP's)
WHERE = {"insertion": ("insertion", "INSERTION"), "swap": ("swap", "SWAP"), "2opt": ("two_opt", "TWO_OPT"),
         "3exchange": ("three_exchange", "THREE_EXCHANGE"),
         "hamming1": ("hamming", "HAMMING1"), "hamming2": ("hamming", "HAMMING2"), "hamming3": ("hamming", "HAMMING3"),
         "crowns": ("crowns", "CROWNS"), "adaptive": ("adaptive", "ADAPTIVE"), "basic": ("pair_swaps", "BASIC"), "advanced": ("pair_swaps", "ADVANCED")}
# Neighborhoods that depend on the instance: the problem makes them (Problem.neighborhood).
MADE_BY_PROBLEM = {"change": "the change of a variable to another of its k values depends on k"}
NAMES = (*WHERE, *MADE_BY_PROBLEM)  # every name a run may give


def get_neighborhood(name: str) -> Neighborhood:
    if name in MADE_BY_PROBLEM:
        raise MolsError(f"the {name} neighborhood is made by the problem that uses it: {MADE_BY_PROBLEM[name]}")
    if name not in WHERE:
        raise MolsError(f"unknown neighborhood {name!r}; choose one of {', '.join(NAMES)}")
    module, attribute = WHERE[name]
    return getattr(importlib.import_module(f"mols.neighborhoods.{module}"), attribute)


__getattr__, __dir__ = lazy_exports(__name__, {
    "NEIGHBORHOODS": lambda: {name: get_neighborhood(name) for name in WHERE},  # every one registered, by name
    "NO_KEYS": "mols.neighborhoods.base", "Neighborhood": "mols.neighborhoods.base",
    "position_moves": "mols.neighborhoods.base"})
__all__ = ["MADE_BY_PROBLEM", "NAMES", "NEIGHBORHOODS", "NO_KEYS", "Neighborhood", "get_neighborhood",
           "position_moves"]
