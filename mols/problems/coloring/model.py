"""Graph coloring with k colors: minimise the edges whose ends share a color (0: a proper coloring)."""

from __future__ import annotations

import numpy as np

from mols.encodings import IntegerVector
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.change import value_changes
from mols.problems.base import Problem
from mols.problems.coloring.instance import ColoringInstance
from mols.problems.coloring.kernels import VALUES, ColoringKernels


class Coloring(Problem):
    """Color the n vertices with 0..k-1; x[v] is the color of vertex v. Its neighborhood is `change`
    for k values (recolor one vertex), which `neighborhood("change")` makes for this k."""

    name = "coloring"
    objectives = ("conflicts",)
    dtype = VALUES
    kernel_set = ColoringKernels
    neighborhoods = ("change",)
    target = 0  # a proper coloring

    def __init__(self, instance: ColoringInstance):
        self.instance = instance
        self.n, self.k = instance.graph.n, instance.k
        self.encoding = IntegerVector(self.n, self.k)

    def neighborhood(self, name: str) -> Neighborhood:
        return value_changes(self.k) if name == "change" else super().neighborhood(name)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        u, v = self.instance.graph.edges.T
        return (X[:, u] == X[:, v]).sum(axis=1)[:, None]
