"""The algorithms by name: each one's options class, search and label. Adding an algorithm is its folder and a line
here (or an entry added to REGISTRY from elsewhere: tests/extension/test_new_algorithm.py)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from mols.algorithms.descent.options import ClimbOptions, ILSOptions, ITSOptions
from mols.algorithms.elite.options import EliteOptions
from mols.algorithms.es.options import ESOptions
from mols.algorithms.pls.options import PLSOptions
from mols.algorithms.tabu.options import TabuOptions
from mols.search.options import AlgorithmOptions


@dataclass(frozen=True)
class Algorithm:
    """One algorithm: `options` its options class; `search` its Search class, or "module:Class" imported when a
    search is made (so that the CLI starts without loading kernels); `label` its name in results from its options;
    `help` for --algorithm; `archive`: it takes --archive (where neighbors are filtered); `initial`: it may start
    from a given population; `split`: it selects through tabu's selection, which serves a neighborhood split over
    several GPUs (--gpus); `neighborhood`: the one it runs on where the run names none (None: the problem's usual
    one)."""

    options: type[AlgorithmOptions]
    search: type | str
    label: Callable[[AlgorithmOptions], str]
    help: str
    archive: bool = False
    initial: bool = False
    split: bool = False
    neighborhood: str | None = None

    def build(self, *common, options: AlgorithmOptions, **keywords):
        """The search on `common` (Search's positional arguments), with its options and `keywords` (budgets)."""
        search = self.search
        if isinstance(search, str):
            module, name = search.split(":")
            search = getattr(importlib.import_module(module), name)
        return search(*common, **options.arguments(), **keywords)


REGISTRY: dict[str, Algorithm] = {
    "pls": Algorithm(PLSOptions, "mols.algorithms.pls.search:ParetoLocalSearch", lambda o: f"pls-{o.variant}",
                     "Pareto local search (PLS-1)", archive=True, initial=True),
    "tabu": Algorithm(TabuOptions, "mols.algorithms.tabu.search:AggregatedTabu", lambda o: "tabu",
                      "aggregated tabu search", split=True),
    "its": Algorithm(ITSOptions, "mols.algorithms.descent.its:IteratedTabu", lambda o: "its", "iterated tabu search",
                     split=True),
    "elite": Algorithm(EliteOptions, "mols.algorithms.elite.search:EliteTabu", lambda o: "elite",
                       "tabu walks side by side with an elite (Ro-TS tenures and aspiration)"),
    "hc": Algorithm(ClimbOptions, "mols.algorithms.descent.climb:HillClimbing", lambda o: "hc",
                    "hill climbing (best improvement, restarts)", split=True),
    "ils": Algorithm(ILSOptions, "mols.algorithms.descent.climb:IteratedLocalSearch",
                     lambda o: "ils3opt" if o.strategy is not None else "ils", "iterated local search", split=True),
    "es": Algorithm(ESOptions, "mols.algorithms.es.search:EvolutionStrategy", lambda o: "es",
                    "(1+lambda) evolution strategy with an adaptive radius (real vectors)", neighborhood="adaptive"),
}


def takers(option: str) -> list[str]:
    """The algorithms that take `option`."""
    return [name for name, entry in REGISTRY.items() if option in entry.options.__dataclass_fields__]
