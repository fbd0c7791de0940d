"""The TSP and the bi-objective TSP: TSPLIB reader, model, swap and 2-opt kernels (Numba and CUDA)."""
from __future__ import annotations

from mols.problems.tsp.instance import TspPair, load_pair
from mols.problems.tsp.instance import load_tsp as read_tsp
from mols.problems.tsp.model import Tsp


def load_tsp(instance: str) -> Tsp:
    return Tsp(read_tsp(instance))


def load_bitsp(instance: str) -> Tsp:
    return Tsp(TspPair(instance, load_pair(instance)))


__all__ = ["Tsp", "load_bitsp", "load_tsp"]
