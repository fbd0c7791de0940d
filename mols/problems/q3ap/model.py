"""The quadratic three-dimensional assignment problem (Q3AP) in product form: a pair of permutations (p, q)."""

from __future__ import annotations

import numpy as np

from mols.encodings import Permutations
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.pair_swaps import SWAPS
from mols.problems.base import Defaults, Problem, integer_dtype
from mols.problems.io import source
from mols.problems.q3ap.instance import Q3apInstance
from mols.problems.q3ap.kernels import Q3apKernels

STRENGTH_LOW = 2  # ITS's random swaps per perturbation are drawn in [2, n] (Luong et al. 2010)


class Q3ap(Problem):
    """Minimise f(p, q) = sum_{i, t} A[i, t] B[p(i), p(t)] E[q(i), q(t)] (instance.py) over pairs of
    permutations x = (p, q); neighborhoods `basic` and `advanced` (neighborhoods/pair_swaps.py), every move
    evaluated in O(n) (kernels.py). Tabu search's tenure is a quarter of the neighborhood's size and ITS
    perturbs with a random number of swaps in [2, n], as Luong et al. (2010) do. Its target is none: give
    the best-known value with --target to stop there."""

    name = "q3ap"
    objectives = ("cost",)
    kernel_set = Q3apKernels
    neighborhoods = tuple(SWAPS)

    def __init__(self, instance: Q3apInstance):
        self.instance = instance
        self.n = instance.n
        self.encoding = Permutations(2, self.n)
        self.symmetric = instance.symmetric
        bound = int(np.abs(instance.a).sum()) * int(np.abs(instance.b).max()) * int(np.abs(instance.e).max())
        self.dtype = integer_dtype(bound, source(instance))

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        a, b, e = self.instance.a, self.instance.b, self.instance.e
        p, q = X[:, :self.n].astype(np.intp), X[:, self.n:].astype(np.intp)
        return np.array([[(a * b[np.ix_(pp, pp)] * e[np.ix_(qq, qq)]).sum()] for pp, qq in zip(p, q)])

    def defaults(self, nbh: Neighborhood) -> Defaults:
        """Tabu search's tenure: a quarter of the neighborhood's size (Luong et al. 2010: m / 4); ITS draws its
        swaps per perturbation in [2, n]."""
        return Defaults(tenure=max(1, nbh.n_neighbors(self.n) // 4),
                        perturbation=(STRENGTH_LOW, max(STRENGTH_LOW, self.n)))
