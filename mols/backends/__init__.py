"""Evaluation backends: `cpu` (Numba) and `gpu` (CuPy), chosen by a BackendSpec (`auto`: gpu where CuPy finds a
device)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mols.backends.spec import ARCHIVES, DEVICES, BackendSpec
from mols.errors import MolsError
from mols.lazy import lazy_exports

if TYPE_CHECKING:
    from mols.backends.base import Evaluator
    from mols.neighborhoods import Neighborhood
    from mols.problems.base import Problem

__getattr__, __dir__ = lazy_exports(__name__, {"Evaluator": "mols.backends.base",
                                               "gpu_available": "mols.backends.cuda"})


def prepare(problem: Problem, nbh: Neighborhood, spec: BackendSpec | str = "auto", iteration=None) -> Evaluator:
    """An evaluator of `nbh` on `problem`, made as `spec` says (a BackendSpec, or a device name: auto, cpu,
    gpu), on the gpu under the launch tuning.py chooses, timing `iteration` (tuning.Iteration: the algorithm's, as
    algorithms/tabu/selection.py's tuned_iteration; None: an evaluation), or split over spec.gpus devices (split.py).
    `gpu` where CuPy finds no device is a BackendError."""
    spec = (spec if isinstance(spec, BackendSpec) else BackendSpec(spec)).resolved()
    check_supported(problem, nbh)
    if spec.device == "gpu" and spec.gpus > 1:
        from mols.backends.split import SplitEvaluator

        return SplitEvaluator(problem, nbh, spec)
    if spec.device == "gpu":
        from mols.backends.tuning import evaluation, gpu_evaluator

        return gpu_evaluator(problem, nbh, spec, iteration=iteration or evaluation)
    from mols.backends.cpu import CpuEvaluator

    return CpuEvaluator(problem, nbh, spec)


def check_supported(problem: Problem, nbh: Neighborhood) -> None:
    """MolsError unless the problem's kernels evaluate this neighborhood of its solution kind."""
    if problem.neighborhoods is not None and nbh.name not in problem.neighborhoods:
        raise MolsError(f"the {problem.name} problem does not support the {nbh.name} neighborhood; "
                        f"choose {' or '.join(problem.neighborhoods)}")
    if nbh.encoding != problem.encoding.name:
        raise MolsError(f"the {nbh.name} neighborhood moves in {nbh.encoding} solutions; the {problem.name} problem's "
                        f"are {problem.encoding.name}")


__all__ = ["ARCHIVES", "DEVICES", "BackendSpec", "Evaluator", "check_supported", "gpu_available", "prepare"]
