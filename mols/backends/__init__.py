"""Evaluation backends: `cpu` (Numba), `gpu` (CuPy) and `auto` (gpu when CuPy finds a device)."""

from __future__ import annotations

from mols.backends.base import Evaluator
from mols.backends.cuda import gpu_available, import_cupy
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

BACKENDS = ("auto", "cpu", "gpu")


def resolve_backend(name: str) -> str:
    """`cpu` or `gpu`; `auto` is `gpu` exactly when CuPy finds a CUDA device; `gpu` where there is
    none is a BackendError."""
    if name not in BACKENDS:
        raise MolsError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if name == "auto":
        return "gpu" if gpu_available() else "cpu"
    if name == "gpu":
        import_cupy()
    return name


def prepare(problem: Problem, nbh: Neighborhood, backend: str = "auto", threads: int | None = None) -> Evaluator:
    """An evaluator of `nbh` on `problem`; `threads` limits the CPU backend's cores."""
    check_supported(problem, nbh)
    if resolve_backend(backend) == "gpu":
        from mols.backends.gpu import GpuEvaluator

        return GpuEvaluator(problem, nbh)
    from mols.backends.cpu import CpuEvaluator

    return CpuEvaluator(problem, nbh, threads=threads)


def check_supported(problem: Problem, nbh: Neighborhood) -> None:
    """MolsError unless the problem's kernels evaluate this neighborhood."""
    if problem.neighborhoods is not None and nbh.name not in problem.neighborhoods:
        raise MolsError(f"the {problem.name} problem does not support the {nbh.name} neighborhood; "
                        f"choose {' or '.join(problem.neighborhoods)}")


__all__ = ["BACKENDS", "Evaluator", "check_supported", "gpu_available", "prepare", "resolve_backend"]
