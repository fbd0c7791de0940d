"""Attainment surfaces and EAF differences (moocore) against their definitions, computed here by brute force
on the grid of every coordinate the fronts use."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mols.archive import nondominated
from mols.reporting.attainment import attainment_surfaces, eaf_difference, levels


def attained(fronts: list[np.ndarray], z: np.ndarray) -> np.ndarray:
    """Which fronts have a point weakly dominating z."""
    return np.array([(f <= z).all(axis=1).any() for f in fronts])


def minimal(points: np.ndarray) -> set[tuple]:
    return set(map(tuple, points[nondominated(points)].tolist())) if len(points) else set()


def brute_surface(fronts: list[np.ndarray], t: int) -> set[tuple]:
    """The minimal grid points attained by at least t fronts; every attainment surface's point has its
    coordinates among the fronts' own."""
    union = np.concatenate(fronts)
    grid = np.array([(x, y) for x in np.unique(union[:, 0]) for y in np.unique(union[:, 1])])
    return minimal(grid[[attained(fronts, z).sum() >= t for z in grid]])


def as_set(points: np.ndarray) -> set[tuple]:
    return set(map(tuple, points.tolist()))


def random_fronts(rng: np.random.Generator, k: int) -> list[np.ndarray]:
    """k random sets of 1 to 6 points on a 10 x 10 integer grid (dominated points and ties included)."""
    return [rng.integers(0, 10, size=(rng.integers(1, 7), 2)).astype(float) for _ in range(k)]


def test_levels_of_the_named_surfaces():
    assert levels(1) == {"best": 1, "median": 1, "worst": 1}
    assert levels(4) == {"best": 1, "median": 2, "worst": 4}
    assert levels(5) == {"best": 1, "median": 3, "worst": 5}


@pytest.mark.parametrize("k", [1, 2, 5])
def test_surfaces_of_identical_runs_are_their_front(k):
    front = np.array([[3.0, 1.0], [1.0, 4.0], [2.0, 2.0], [2.0, 3.0], [4.0, 4.0]])  # the last two dominated
    surfaces = attainment_surfaces([front] * k)
    assert set(surfaces) == {"best", "median", "worst"}
    for surface in surfaces.values():
        np.testing.assert_array_equal(surface, [[1.0, 4.0], [2.0, 2.0], [3.0, 1.0]])  # sorted by objective 1


@pytest.mark.parametrize("seed", range(12))
def test_surfaces_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    fronts = random_fronts(rng, k=1 + seed % 6)
    surfaces = attainment_surfaces(fronts)
    for name, t in levels(len(fronts)).items():
        assert as_set(surfaces[name]) == brute_surface(fronts, t), name


@pytest.mark.parametrize("seed", range(8))
def test_eaf_difference_against_brute_force(seed):
    """At a point inside every cell of the coordinate grid, the rectangles covering it add up to the
    fraction of a's fronts attaining it minus that of b's."""
    rng = np.random.default_rng(100 + seed)
    k = 1 + seed % 4
    a, b = random_fronts(rng, k), random_fronts(rng, k)
    rectangles = eaf_difference(a, b)
    assert (rectangles[:, -1] != 0).all() and (np.abs(rectangles[:, -1]) <= 1).all()
    union = np.concatenate(a + b)
    cells = [np.append(np.unique(c), np.unique(c).max() + 2) for c in union.T]
    for x in (cells[0][:-1] + cells[0][1:]) / 2:
        for y in (cells[1][:-1] + cells[1][1:]) / 2:
            inside = ((rectangles[:, 0] <= x) & (x < rectangles[:, 2])
                      & (rectangles[:, 1] <= y) & (y < rectangles[:, 3]))
            z = np.array([x, y])
            want = attained(a, z).mean() - attained(b, z).mean()
            assert math.isclose(rectangles[inside, -1].sum(), want, abs_tol=1e-12), (x, y)


def test_eaf_difference_of_a_group_with_itself_is_empty():
    fronts = random_fronts(np.random.default_rng(7), 3)
    assert len(eaf_difference(fronts, fronts)) == 0


def test_eaf_difference_needs_equal_numbers_of_runs():
    fronts = random_fronts(np.random.default_rng(8), 3)
    with pytest.raises(ValueError, match="equal numbers of runs, got 3 and 2"):
        eaf_difference(fronts, fronts[:2])
