"""The runner: `RunConfig` and `solve`, the one entry point, above the algorithms."""

from __future__ import annotations

from mols.lazy import lazy_exports
from mols.runner.config import ALGORITHMS, DEFAULT_ITERATIONS, DEFAULT_PARTITIONS, VARIANTS, RunConfig

__getattr__, __dir__ = lazy_exports(__name__, {
    "Reached": "mols.search.base", "SearchResult": "mols.search.base",
    **{name: "mols.runner.entry" for name in ("build_search", "make_search", "run_problem", "solve")}})
__all__ = ["ALGORITHMS", "DEFAULT_ITERATIONS", "DEFAULT_PARTITIONS", "VARIANTS", "Reached", "RunConfig", "SearchResult",
           "build_search", "make_search", "run_problem", "solve"]
