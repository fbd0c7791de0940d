"""The quadratic three-dimensional assignment problem (Q3AP) over pairs of permutations (p, q): the general form
(a 6-index cost and a linear term) and the product form, its compact special case."""

from __future__ import annotations

import numpy as np

from mols.encodings import Permutations
from mols.neighborhoods import Neighborhood
from mols.neighborhoods.pair_swaps import SWAPS
from mols.problems.base import Defaults, Problem, integer_dtype
from mols.problems.io import source
from mols.problems.q3ap.general import Q3apGeneralInstance
from mols.problems.q3ap.instance import Q3apInstance
from mols.problems.q3ap.kernels import Q3apGeneralKernels, Q3apKernels

STRENGTH_LOW = 2  # ITS's random swaps per perturbation are drawn in [2, n] (Luong et al. 2010)


class Q3apModel(Problem):
    """What both forms share: solutions x = (p, q), neighborhoods `basic` and `advanced` (neighborhoods/pair_swaps.py),
    every move evaluated in O(n) (kernels.py). Tabu search's tenure is a quarter of the neighborhood's size and ITS
    perturbs with a random number of swaps in [2, n], as Luong et al. (2010) do. Its target is none: give the
    best-known value with --target to stop there."""

    name = "q3ap"
    objectives = ("cost",)
    neighborhoods = tuple(SWAPS)

    def __init__(self, instance, symmetric: bool, bound: int):
        self.instance = instance
        self.n = instance.n
        self.encoding = Permutations(2, self.n)
        self.symmetric = symmetric
        self.dtype = integer_dtype(bound, source(instance))

    def defaults(self, nbh: Neighborhood) -> Defaults:
        """Tabu search's tenure: a quarter of the neighborhood's size (Luong et al. 2010: m / 4); ITS draws its
        swaps per perturbation in [2, n]."""
        return Defaults(tenure=max(1, nbh.n_neighbors(self.n) // 4),
                        perturbation=(STRENGTH_LOW, max(STRENGTH_LOW, self.n)))


class Q3ap(Q3apModel):
    """The product form: minimise f(p, q) = sum_{i, t} A[i, t] B[p(i), p(t)] E[q(i), q(t)] (instance.py), the 6-index
    costs C[i, j, l, t, k, m] = A[i, t] B[j, k] E[l, m] with no linear term, in O(n^2) memory."""

    kernel_set = Q3apKernels

    def __init__(self, instance: Q3apInstance):
        bound = int(np.abs(instance.a).sum()) * int(np.abs(instance.b).max()) * int(np.abs(instance.e).max())
        super().__init__(instance, instance.symmetric, bound)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        a, b, e = self.instance.a, self.instance.b, self.instance.e
        p, q = X[:, :self.n].astype(np.intp), X[:, self.n:].astype(np.intp)
        return np.array([[(a * b[np.ix_(pp, pp)] * e[np.ix_(qq, qq)]).sum()] for pp, qq in zip(p, q)])


class Q3apGeneral(Q3apModel):
    """The general form (Luong et al. 2010, eq. 4): minimise f(p, q) = sum_i b[i, p(i), q(i)] +
    sum_{i, t} C[i, p(i), q(i), t, p(t), q(t)] (general.py), C dense: n^6 costs."""

    kernel_set = Q3apGeneralKernels

    def __init__(self, instance: Q3apGeneralInstance):
        super().__init__(instance, instance.symmetric, instance.bound)

    def triples(self, X: np.ndarray) -> np.ndarray:
        """Each solution's rows of C, (B, n): position i holding p's value j and q's value l is (i n + j) n + l."""
        n = self.n
        return (np.arange(n) * n + X[:, :n].astype(np.int64)) * n + X[:, n:].astype(np.int64)

    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        b, m = self.instance.b.ravel(), self.instance.matrix
        return np.array([[b[t].sum(dtype=np.int64) + m[np.ix_(t, t)].sum(dtype=np.int64)] for t in self.triples(X)])
