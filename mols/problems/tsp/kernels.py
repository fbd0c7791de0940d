"""The TSP's kernel set: tours with their coordinates and edges in tour order (moves.py), the Numba kernels (cpu.py)
and tsp.cu (after distance.cuh), which evaluates (fused with the selection too), applies a move and serves lanes."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from mols.neighborhoods import Neighborhood
from mols.problems.kernels import KernelSet, Layout, staging_refused, value_type
from mols.problems.tsp.cpu import make_cpu_kernel
from mols.problems.tsp.moves import fill_tour

if TYPE_CHECKING:
    from mols.problems.tsp.model import Tsp

KERNELS = {"swap": "tsp_swap", "2opt": "tsp_2opt", "3exchange": "tsp_3exchange"}
DISTANCE_CUH = Path(__file__).with_name("distance.cuh")


def per_neighborhood(suffix: str) -> MappingProxyType:
    """Each neighborhood's kernel of tsp.cu with this suffix."""
    return MappingProxyType({name: kernel + suffix for name, kernel in KERNELS.items()})


class TspKernels(KernelSet):
    problem: Tsp
    chunkable = True
    lane_kernels = True
    cuda_file = Path(__file__).with_name("tsp.cu")
    cuda_kernel = "tsp_swap"
    population_kernel = "tsp_population"
    selection_kernels = per_neighborhood("_select")
    apply_kernels = per_neighborhood("_apply")

    def cuda_source(self, nbh: Neighborhood) -> str:
        return DISTANCE_CUH.read_text() + super().cuda_source(nbh)

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        return KERNELS[nbh.name]

    def data(self) -> tuple[np.ndarray, ...]:
        return ()

    def population_data(self) -> tuple[np.ndarray, ...]:
        return (self.problem.xy,)

    def state_layout(self) -> Layout:
        n, k = self.problem.n, self.problem.n_obj
        # perm; txy: coordinates in tour order; edge[o, p]: position p to p + 1; length per objective
        return [((n,), np.dtype(np.int32)), ((k, n, 2), np.dtype(np.float64)), ((k, n), np.dtype(np.int32)),
                ((k,), np.dtype(np.int64))]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        perm, txy, edge, length = state
        perm[:] = x
        xy, att = self.problem.xy, self.problem.att
        for o in range(self.problem.n_obj):
            length[o] = fill_tour(xy[o], perm, txy[o], edge[o], att)

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        return make_cpu_kernel(nbh.name, self.problem.att)

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """tsp.cu's TSP_STAGE_TOUR: the tour-ordered coordinates (16 bytes a city) and edges (4) of each
        objective."""
        problem = self.problem
        return staging_refused(f"the coordinates and edges of {problem.instance_name}", 20 * problem.n_obj * problem.n)

    def cuda_defines(self) -> dict[str, int | str]:
        problem = self.problem
        return {"N_CITIES": problem.n, "N_OBJ": problem.n_obj, "ATT": int(problem.att),
                "VAL": value_type(problem.dtype)}
