"""Graph coloring (DIMACS .col graphs) with k colors, searched with the change neighborhood."""

from __future__ import annotations

from mols.problems.coloring.instance import (
    ColoringInstance,
    Graph,
    instance_table,
    read_col,
    resolve_coloring,
)
from mols.problems.coloring.model import Coloring


def load_coloring(instance: str) -> Coloring:
    """`NAME` (a bundled graph, its chromatic number of colors), `NAME:K` or `PATH:K` (K colors)."""
    return Coloring(resolve_coloring(instance))


__all__ = ["Coloring", "ColoringInstance", "Graph", "instance_table", "load_coloring", "read_col"]
