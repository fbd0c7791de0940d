"""The runner: `RunConfig` and `solve`, the one entry point, above the algorithms; `Runner`, the loop of a search."""

from __future__ import annotations

from mols.lazy import lazy_exports
from mols.runner.config import ALGORITHMS, DEFAULT_ITERATIONS, DEFAULT_PARTITIONS, VARIANTS, RunConfig

__getattr__, __dir__ = lazy_exports(__name__, {
    "Reached": "mols.search.base", "SearchResult": "mols.search.base", "Runner": "mols.search.loop",
    "Monitor": "mols.search.monitor",
    **{name: "mols.runner.entry" for name in ("build_search", "make_search", "run_problem", "solve")}})
__all__ = ["ALGORITHMS", "DEFAULT_ITERATIONS", "DEFAULT_PARTITIONS", "VARIANTS", "Monitor", "Reached", "RunConfig",
           "Runner", "SearchResult", "build_search", "make_search", "run_problem", "solve"]
