"""The TSP (tour length) and the bi-objective TSP (two coordinate sets, two lengths)."""

from __future__ import annotations

import numpy as np

from mols.encodings import Permutation
from mols.errors import MolsError
from mols.problems.base import INT32_MAX, Problem, integer_dtype
from mols.problems.io import source
from mols.problems.tsp.instance import TspInstance, TspPair
from mols.problems.tsp.kernels import KERNELS, TspKernels


def rounded_distances(a: np.ndarray, b: np.ndarray, att: bool) -> np.ndarray:
    """TSPLIB distances (EUC_2D, or ATT) between the points a[..., :] and b[..., :] (coordinates last), int64."""
    dx, dy = a[..., 0] - b[..., 0], a[..., 1] - b[..., 1]
    s = dx * dx + dy * dy
    if att:
        r = np.sqrt(s / 10.0)
        t = (r + 0.5).astype(np.int64)
        return np.where(t < r, t + 1, t)
    return (np.sqrt(s) + 0.5).astype(np.int64)


def tour_lengths(xy: np.ndarray, X: np.ndarray, att: bool) -> np.ndarray:
    """Reference lengths (B,) of tours X (B, n) over cities xy (n, 2), in NumPy."""
    return rounded_distances(xy[X], xy[np.roll(X, -1, axis=1)], att).sum(axis=1)


def distance_matrix(xy: np.ndarray, att: bool) -> np.ndarray:
    """(n, n) the TSPLIB distances between every two cities, as the kernels measure them (for solvers that take a
    matrix)."""
    return rounded_distances(xy[:, None, :], xy[None, :, :], att)


def max_distance(xy: np.ndarray) -> float:
    """An upper bound of any distance between the cities."""
    return float(np.hypot(*np.ptp(xy, axis=0))) + 2.0


class Tsp(Problem):
    """A tour of n cities; one objective per coordinate set (the length under it), all minimised."""

    name = "tsp"
    kernel_set = TspKernels
    neighborhoods = tuple(KERNELS)

    def __init__(self, instance: TspInstance | TspPair):
        self.instance = instance
        parts = instance.parts if isinstance(instance, TspPair) else (instance,)
        kinds = {part.edge_weight_type for part in parts}
        if len(kinds) != 1:
            raise MolsError(f"{instance.name}: the coordinate sets use different EDGE_WEIGHT_TYPEs {sorted(kinds)}")
        self.att = kinds.pop() == "ATT"
        self.objectives = ("length",) if len(parts) == 1 else tuple(f"length_{part.name}" for part in parts)
        self.xy = np.stack([part.xy for part in parts])  # (n_obj, n, 2)
        self.n = parts[0].n
        longest = [max_distance(part.xy) for part in parts]
        for part, distance in zip(parts, longest):
            if distance > INT32_MAX // 2:
                raise MolsError(f"{source(part)}: cities up to {distance:.3g} apart, too far for the int32 distances "
                                f"of the kernels (at most {INT32_MAX // 2}); scale the coordinates down")
        self.dtype = integer_dtype(self.n * int(max(longest)), source(instance))
        self.encoding = Permutation(self.n)

    def _project(self, columns: tuple[int, ...]) -> Tsp:
        """The TSP of the coordinate sets `columns`, in that order, under the same instance name (with_objectives)."""
        return Tsp(TspPair(self.instance.name, tuple(self.instance.parts[c] for c in columns)))

    def _evaluate(self, batch: np.ndarray) -> np.ndarray:
        return np.stack([tour_lengths(xy, batch, self.att) for xy in self.xy], axis=1)

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """Through the kernels' state (Numba)."""
        kernels = self.kernels
        state = tuple(np.empty(shape, dtype) for shape, dtype in kernels.state_layout())
        kernels.fill_state(x, state)
        return state[3].astype(self.dtype)
