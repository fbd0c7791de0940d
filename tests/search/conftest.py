"""A tiny flowshop problem and a way to check what a search hands back."""

from __future__ import annotations

import numpy as np
import pytest

from mols.archive import nondominated
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance


@pytest.fixture
def tiny() -> Flowshop:
    """8 jobs on 3 machines: fronts of a few solutions, neighborhoods of at most 49."""
    return Flowshop(random_instance(np.random.default_rng(7), 8, 3))


def check_archive(problem, archive) -> None:
    """Members are permutations whose objective vectors are the reference evaluation's, mutually
    non-dominated and distinct."""
    assert len(archive) == len(archive.X) == len(archive.visited) > 0
    for x in archive.X:
        np.testing.assert_array_equal(np.sort(x), np.arange(problem.n))
    np.testing.assert_array_equal(archive.F, problem.evaluate(archive.X))
    assert nondominated(archive.F).all()
