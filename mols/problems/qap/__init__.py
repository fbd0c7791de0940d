"""The quadratic assignment problem (QAPLIB) and its multiobjective form (Knowles-Corne mQAP)."""

from __future__ import annotations

import numpy as np

from mols.errors import InstanceError
from mols.problems.qap.instance import read_mqap, read_pareto_set, read_qaplib, resolve_qap
from mols.problems.qap.model import Qap


def load_qap(instance: str) -> Qap:
    return Qap(read_qaplib(resolve_qap(instance, "qap")))


def load_mqap(instance: str) -> Qap:
    return Qap(read_mqap(resolve_qap(instance, "mqap")), name="mqap")


def published_front(instance: str) -> np.ndarray | None:
    """The exact Pareto front of an mQAP instance from the .PO file beside its .dat (the KC10
    instances of Knowles and Corne), or None."""
    try:
        path = resolve_qap(instance, "mqap")
    except InstanceError:
        return None
    if not path.with_suffix(".PO").is_file():
        return None
    problem = read_mqap(path)
    return read_pareto_set(path.with_suffix(".PO"), problem.n, problem.k)[1]


__all__ = ["Qap", "load_mqap", "load_qap", "published_front"]
