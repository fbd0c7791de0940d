"""Pareto local search's options."""

from __future__ import annotations

from dataclasses import dataclass

from mols.search.options import SEARCH, AlgorithmOptions, keyed, option

VARIANTS = ("dominating", "nondominated")  # PLS: which neighbors enter the archive (PLS-√, PLS-≠)


@dataclass(frozen=True)
class PLSOptions(AlgorithmOptions):
    """-a pls: PLS-1, restarted until a budget ends the run (or `restarts` times, then its natural end)."""

    variant: str = option("nondominated", "PLS: which neighbors enter the archive (dominating = PLS-√, "
                          "nondominated = PLS-≠).", SEARCH, choices=VARIANTS)
    restarts: int | None = option(None, "PLS: random restarts, then stop when the archive is fully explored (0: "
                                  "PLS-1's natural end; default: restart until a budget ends the run).", SEARCH,
                                  minimum=0, folder=keyed("R"))
