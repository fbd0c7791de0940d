"""Graph coloring with k colors: minimise the edges whose ends share a color (0: a proper coloring)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.encodings import IntegerVector
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.change import value_changes
from mols.problems.base import Layout, Problem
from mols.problems.coloring import cpu
from mols.problems.coloring.instance import ColoringInstance

VALUES = np.dtype(np.int32)  # colors, counts and conflicts: the reader bounds the edges by 2^31 - 1


class Coloring(Problem):
    """Color the n vertices with 0..k-1; x[v] is the color of vertex v. Its neighborhood is `change`
    for k values (recolor one vertex), which `neighborhood("change")` makes for this k."""

    name = "coloring"
    objectives = ("conflicts",)
    dtype = VALUES
    cuda_file = Path(__file__).with_name("coloring.cu")
    cuda_kernel = "coloring_change"
    neighborhoods = ("change",)
    target = 0  # a proper coloring

    def __init__(self, instance: ColoringInstance):
        self.instance = instance
        self.n, self.k = instance.graph.n, instance.k
        self.encoding = IntegerVector(self.n, self.k)
        self.offsets, self.neighbors = instance.graph.adjacency()

    def neighborhood(self, name: str) -> Neighborhood:
        return value_changes(self.k) if name == "change" else super().neighborhood(name)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        u, v = self.instance.graph.edges.T
        return (X[:, u] == X[:, v]).sum(axis=1)[:, None]

    def data(self) -> tuple[np.ndarray, ...]:
        return ()

    def state_layout(self) -> Layout:
        # x, conf, cost: see cpu.py
        return [((self.n,), VALUES), ((self.n, self.k), VALUES), ((1,), VALUES)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        cpu.fill_state(self.offsets, self.neighbors, np.asarray(x, dtype=VALUES), *state)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Every move is O(1) from the state already: there is no separate incremental kernel."""
        self._check_colors(nbh)
        return cpu.change_neighborhood

    def cuda_source(self, nbh: Neighborhood) -> str:
        self._check_colors(nbh)
        return super().cuda_source(nbh)

    def cuda_defines(self) -> dict[str, int | str]:
        return {"N_VERTICES": self.n}

    def _check_colors(self, nbh: Neighborhood) -> None:
        """A change neighborhood made for another number of values would read past conf's rows."""
        if nbh.cuda_defines.get("NBH_K") != self.k:
            raise MolsError(f"this change neighborhood moves among {nbh.cuda_defines.get('NBH_K')} values, the "
                            f"coloring of {self.instance_name} among {self.k} colors; use its "
                            "problem.neighborhood('change')")
