"""mols: local search in which whole neighborhoods are evaluated at once, on a GPU (CuPy) or CPU cores (Numba)."""

from __future__ import annotations

import os

from mols.backends.threads import SPINS

os.environ.setdefault("GOMP_SPINCOUNT", SPINS)  # before Numba's OpenMP pool starts: see mols/backends/threads.py

from mols.backends import BACKENDS, prepare, resolve_backend  # noqa: E402
from mols.errors import BackendError, InstanceError, MolsError
from mols.neighborhoods import NEIGHBORHOODS, get_neighborhood
from mols.problems import PROBLEMS, check_permutation, load_problem
from mols.search import ALGORITHMS, RunConfig, SearchResult, solve

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS", "BACKENDS", "NEIGHBORHOODS", "PROBLEMS", "BackendError", "InstanceError", "MolsError", "RunConfig",
    "SearchResult", "check_permutation", "get_neighborhood", "load_problem", "prepare", "resolve_backend", "solve",
]
