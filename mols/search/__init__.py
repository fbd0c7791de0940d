"""Searches on the host over whole-neighborhood evaluations, `RunConfig` and `solve`, the one entry point."""

from __future__ import annotations

from mols.lazy import lazy_exports
from mols.search.config import ALGORITHMS, DEFAULT_ITERATIONS, DEFAULT_PARTITIONS, VARIANTS, RunConfig

__getattr__, __dir__ = lazy_exports(__name__, {
    "Reached": "mols.search.base", "SearchResult": "mols.search.base",
    **{name: "mols.search.entry" for name in ("build_search", "make_search", "run_problem", "solve")}})
__all__ = ["ALGORITHMS", "DEFAULT_ITERATIONS", "DEFAULT_PARTITIONS", "VARIANTS", "Reached", "RunConfig", "SearchResult",
           "build_search", "make_search", "run_problem", "solve"]
