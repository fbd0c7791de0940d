"""The quadratic three-dimensional assignment problem (Q3AP) in product form: a pair of permutations (p, q)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.encodings import Permutations
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.pair_swaps import SWAPS
from mols.problems.base import Layout, Problem, integer_dtype
from mols.problems.io import source
from mols.problems.q3ap import cpu
from mols.problems.q3ap.instance import Q3apInstance

MATRIX = np.dtype(np.int32)
STRENGTH_LOW = 2  # ITS's random swaps per perturbation are drawn in [2, n] (Luong et al. 2010)


class Q3ap(Problem):
    """Minimise f(p, q) = sum_{i, t} A[i, t] B[p(i), p(t)] E[q(i), q(t)] (instance.py) over pairs of
    permutations x = (p, q); neighborhoods `basic` and `advanced` (neighborhoods/pair_swaps.py), every move
    evaluated in O(n) (cpu.py, q3ap.cu). Tabu search's tenure is a quarter of the neighborhood's size and ITS
    perturbs with a random number of swaps in [2, n], as Luong et al. (2010) do. Its target is none: give
    the best-known value with --target to stop there."""

    name = "q3ap"
    objectives = ("cost",)
    cuda_file = Path(__file__).with_name("q3ap.cu")
    cuda_kernel = "q3ap_neighborhood"
    neighborhoods = tuple(SWAPS)
    lane_kernels = True

    def __init__(self, instance: Q3apInstance):
        self.instance = instance
        self.n = instance.n
        self.encoding = Permutations(2, self.n)
        self.symmetric = instance.symmetric
        bound = int(np.abs(instance.a).sum()) * int(np.abs(instance.b).max()) * int(np.abs(instance.e).max())
        self.dtype = integer_dtype(bound, source(instance))
        self.A, self.B, self.E = (np.ascontiguousarray(m, dtype=MATRIX) for m in (instance.a, instance.b, instance.e))

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        a, b, e = self.instance.a, self.instance.b, self.instance.e
        p, q = X[:, :self.n].astype(np.intp), X[:, self.n:].astype(np.intp)
        return np.array([[(a * b[np.ix_(pp, pp)] * e[np.ix_(qq, qq)]).sum()] for pp, qq in zip(p, q)])

    def data(self) -> tuple[np.ndarray, ...]:
        return (self.A,)

    def state_layout(self) -> Layout:
        n = self.n
        # x, cost, Bp, Eq: see cpu.py
        return [((2 * n,), np.dtype(np.int32)), ((1,), self.dtype), ((n, n), MATRIX), ((n, n), MATRIX)]

    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """O(n^2): Bp and Eq gathered from B and E, and the cost summed from them."""
        x_state, cost, Bp, Eq = state
        p, q = x[:self.n].astype(np.intp), x[self.n:].astype(np.intp)
        x_state[:] = x
        Bp[:] = self.B[np.ix_(p, p)]
        Eq[:] = self.E[np.ix_(q, q)]
        cost[0] = (self.A.astype(np.int64) * Bp * Eq.astype(np.int64)).sum()

    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True):
        """Every move is O(n) from the state: there is no separate incremental kernel."""
        return cpu.neighborhood_kernel(SWAPS[nbh.name], self.symmetric)

    def cuda_defines(self) -> dict[str, int | str]:
        return {"N_POS": self.n, "VAL": "int" if self.dtype == np.int32 else "long long",
                "SYMMETRIC": int(self.symmetric)}

    def selection_kernel(self, nbh: Neighborhood) -> str:
        return "q3ap_neighborhood_select"

    def apply_kernel(self, nbh: Neighborhood) -> str:
        return "q3ap_apply"

    def tabu_tenure(self, nbh: Neighborhood) -> int:
        """A quarter of the neighborhood's size (Luong et al. 2010: m / 4)."""
        return max(1, nbh.n_neighbors(self.n) // 4)

    def perturbation(self) -> tuple[int, int]:
        """ITS draws its swaps per perturbation in [2, n] (Luong et al. 2010)."""
        return STRENGTH_LOW, max(STRENGTH_LOW, self.n)
