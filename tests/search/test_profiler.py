"""The profile split: evaluation, archiving and the rest, adding up to the wall time."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mols.algorithms.pls.search import ParetoLocalSearch
from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import prepare
from mols.neighborhoods import NEIGHBORHOODS
from mols.search.profiler import PARTS, Profiler


def check_split(split, wall):
    assert list(split) == list(PARTS) == ["evaluation", "archiving", "ls process"]
    seconds = [part["seconds"] for part in split.values()]
    assert all(s >= 0 for s in seconds)
    assert math.isclose(sum(seconds), wall, rel_tol=1e-9)
    assert math.isclose(sum(part["percent"] for part in split.values()), 100.0, rel_tol=1e-9)
    for part in split.values():
        assert math.isclose(part["percent"], 100.0 * part["seconds"] / wall, rel_tol=1e-9)


def test_sections_add_up():
    profiler = Profiler()
    for _ in range(3):
        with profiler.section("evaluation"):
            np.sort(np.random.default_rng(0).random(20_000))
        with profiler.section("archiving"):
            sum(range(10_000))
        sum(range(10_000))  # the rest
    profiler.stop()
    assert profiler.seconds["evaluation"] > 0 and profiler.seconds["archiving"] > 0
    check_split(profiler.split(), profiler.wall)


def test_a_section_that_raises_is_still_charged():
    profiler = Profiler()
    with pytest.raises(KeyboardInterrupt), profiler.section("evaluation"):
        sum(range(10_000))
        raise KeyboardInterrupt
    assert profiler.seconds["evaluation"] > 0


@pytest.mark.parametrize("cls", [ParetoLocalSearch, AggregatedTabu])
def test_search_profile(tiny, cls):
    nbh = NEIGHBORHOODS["swap"]
    result = cls(tiny, nbh, prepare(tiny, nbh, "cpu"), 20, np.random.default_rng(0)).run()
    assert result.wall_seconds > 0
    assert result.profile["evaluation"]["seconds"] > 0 and result.profile["archiving"]["seconds"] > 0
    check_split(result.profile, result.wall_seconds)
