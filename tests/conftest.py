"""Shared fixtures: random flowshop instances, and the `gpu` marker that skips cleanly without a device."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import gpu_available
from mols.problems.flowshop.instance import FlowshopInstance


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="no CUDA device (CuPy not installed or finds none)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def random_instance(rng: np.random.Generator, n: int, m: int, p_max: int = 99) -> FlowshopInstance:
    """Processing times in 1..p_max and due dates spread so that some jobs are tardy and some not."""
    p = rng.integers(1, p_max + 1, size=(m, n))
    horizon = int(p.sum(axis=0).mean()) * max(1, n // 2)
    due = rng.integers(0, horizon + 1, size=n)
    return FlowshopInstance(f"random_{n}x{m}", p, due, seed=None, due_dates="random")


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)
