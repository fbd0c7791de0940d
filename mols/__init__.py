"""mols: local search in which whole neighborhoods are evaluated at once, on a GPU (CuPy) or CPU cores (Numba)."""

from __future__ import annotations

import os

from mols.backends.threads import SPINS

os.environ.setdefault("GOMP_SPINCOUNT", SPINS)  # before Numba's OpenMP pool starts: see mols/backends/threads.py

from mols.backends import DEVICES, BackendSpec, prepare
from mols.errors import BackendError, InstanceError, MolsError
from mols.neighborhoods import NEIGHBORHOODS, Neighborhood, get_neighborhood, position_moves
from mols.problems import PROBLEMS, Problem, load_problem
from mols.search import ALGORITHMS, RunConfig, SearchResult, solve

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS", "DEVICES", "NEIGHBORHOODS", "PROBLEMS", "BackendError", "BackendSpec", "InstanceError", "MolsError",
    "Neighborhood", "Problem", "RunConfig", "SearchResult", "get_neighborhood", "load_problem", "position_moves",
    "prepare", "solve",
]
