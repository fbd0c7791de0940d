"""mols: local search in which whole neighborhoods are evaluated at once, on a GPU (CuPy) or CPU cores (Numba)."""

from __future__ import annotations

import os

from mols.lazy import lazy_exports

__version__ = "0.2.0"  # the one place: pyproject.toml, run.json and `mols --version` read it

os.environ.setdefault("GOMP_SPINCOUNT", "10000")  # before Numba's OpenMP pool starts: see mols/backends/threads.py

_WHERE = {
    "ALGORITHMS": "mols.runner.config", "RunConfig": "mols.runner.config", "DEVICES": "mols.backends.spec",
    "BackendSpec": "mols.backends.spec", "BackendError": "mols.errors", "InstanceError": "mols.errors",
    "MolsError": "mols.errors", "PROBLEMS": "mols.problems", "load_problem": "mols.problems",
    "Problem": "mols.problems.base", "KernelSet": "mols.problems.kernels", "NEIGHBORHOODS": "mols.neighborhoods",
    "get_neighborhood": "mols.neighborhoods", "Neighborhood": "mols.neighborhoods.base", "position_moves": "mols.neighborhoods.base",
    "prepare": "mols.backends", "SearchResult": "mols.search.base", "solve": "mols.runner.entry",
    "solve_many": "mols.parallel.many",
}
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
__all__ = sorted(_WHERE)
