"""Coloring's kernel set: each vertex's count of neighbors per color (cpu.py) and coloring.cu, every recoloring in
O(1) from them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.coloring import cpu
from mols.problems.kernels import KernelSet, Layout

if TYPE_CHECKING:
    from mols.problems.coloring.model import Coloring

VALUES = np.dtype(np.int32)  # colors, counts and conflicts: the reader bounds the edges by 2^31 - 1


class ColoringKernels(KernelSet):
    problem: Coloring
    cuda_file = Path(__file__).with_name("coloring.cu")
    cuda_kernel = "coloring_change"

    def __init__(self, problem: Coloring):
        super().__init__(problem)
        self.offsets, self.neighbors = problem.instance.graph.adjacency()

    def data(self) -> tuple[np.ndarray, ...]:
        return ()

    def state_layout(self) -> Layout:
        n, k = self.problem.n, self.problem.k
        # x, conf, cost: see cpu.py
        return [((n,), VALUES), ((n, k), VALUES), ((1,), VALUES)]

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
        return {"N_VERTICES": self.problem.n}

    def _check_colors(self, nbh: Neighborhood) -> None:
        """A change neighborhood made for another number of values would read past conf's rows."""
        k = self.problem.k
        if nbh.cuda_defines.get("NBH_K") != k:
            raise MolsError(f"this change neighborhood moves among {nbh.cuda_defines.get('NBH_K')} values, the "
                            f"coloring of {self.problem.instance_name} among {k} colors; use its "
                            "problem.neighborhood('change')")
