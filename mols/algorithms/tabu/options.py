"""Aggregated tabu search's options (and weights and tenure, which the descent family takes too)."""

from __future__ import annotations

from dataclasses import dataclass

from mols.errors import OptionError
from mols.search.options import SEARCH, AlgorithmOptions, keyed, option, parse_numbers

DEFAULT_PARTITIONS = 3  # tabu: Das-Dennis lattice of weight vectors, 10 of them for 3 objectives


def parse_weights(text: str | None) -> tuple[float, ...] | None:
    """Weights written as numbers separated by commas (or spaces)."""
    return None if text is None else parse_numbers(text, "weights")


def weights_option():
    return option(None, "Tabu, ITS, HC, ILS: one weight vector, e.g. '0.5,0.3,0.2' (default: tabu a lattice of "
                  "vectors, see --partitions; the others equal weights).", SEARCH, cli=str, parse=parse_weights,
                  folder=lambda w, config: None if w is None else "w" + "_".join(f"{v:g}" for v in w))


def tenure_option():
    return option(None, "Tabu: iterations a move's inverse stays tabu (default: the problem size n; ITS: n / 2; "
                  "Q3AP: a quarter of the neighborhood).", SEARCH, minimum=0, folder=keyed("t"))


@dataclass(frozen=True)
class TabuOptions(AlgorithmOptions):
    """-a tabu: one run per weight vector, the budget shared between them."""

    weights: tuple[float, ...] | None = weights_option()  # None: a lattice of vectors (partitions)
    partitions: int = option(DEFAULT_PARTITIONS, "Tabu: weight vectors i/P summing to 1.", SEARCH, minimum=1,
                             folder=lambda p, config: f"p{p}" if p != DEFAULT_PARTITIONS else None)
    tenure: int | None = tenure_option()  # None: the problem size n

    def __post_init__(self):
        super().__post_init__()
        if self.weights is not None and self.partitions != DEFAULT_PARTITIONS:
            raise OptionError("partitions", "makes a lattice of weight vectors; {weights} gives one: give either",
                              "weights")
