"""ILS-3opt's start tours: each solution's nearest-neighbour tour (the next city from the candidate list, else the
nearest unvisited one, found over a grid) equals a plain construction that scans every city, ties included."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.ils3opt.population import start_tours
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists


def reference_tour(xy: np.ndarray, cand: np.ndarray, start: int) -> tuple[list[int], int]:
    """The nearest-neighbour tour from `start` by a scan of every city where the list is used up (the nearest by
    squared distance, ties by index); and how many such scans it made."""
    n = len(xy)
    used = np.zeros(n, bool)
    tour, scans = [start], 0
    used[start] = True
    while len(tour) < n:
        c = tour[-1]
        free = [j for j in cand[c] if not used[j]]
        if not free:
            dx, dy = xy[c, 0] - xy[:, 0], xy[c, 1] - xy[:, 1]
            d = np.where(used, np.inf, dx * dx + dy * dy)
            free, scans = [int(np.argmin(d))], scans + 1
        tour.append(int(free[0]))
        used[free[0]] = True
    return tour, scans


def grid_of_ties(transposed: bool) -> np.ndarray:
    """A 12 x 10 grid, numbered by column or by row: every side of length 1 ties, and so do many farther cities."""
    points = [(x, y) for x in range(12) for y in range(10)]
    return np.array([(y, x) for x, y in points] if transposed else points, dtype=np.float64)


@pytest.mark.parametrize("cities", ["random:400:1", "att532", "fl1577", "grid", "grid-transposed"])
@pytest.mark.parametrize("k, quadrant", [(2, False), (5, False), (8, True), (40, True)])
def test_start_tours_equal_the_plain_construction(cities, k, quadrant):
    xy = grid_of_ties(cities.endswith("transposed")) if cities.startswith("grid") else load_tsp(cities).xy[0]
    cand = candidate_lists(xy, k, quadrant)
    tours = np.empty((3, len(xy)), np.int32)
    start_tours(xy, cand, np.uint64(7), tours)
    scans = 0
    for tour in tours:
        expected, made = reference_tour(xy, cand, int(tour[0]))
        assert tour.tolist() == expected
        scans += made
    assert scans > 0 or k == 40  # short lists run out: the grid's search was used
