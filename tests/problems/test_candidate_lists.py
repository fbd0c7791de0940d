"""Candidate lists (problems/tsp/candidates.py): each city's nearest, and each quadrant's nearest first, against
brute force."""

from __future__ import annotations

import numpy as np
import pytest

from mols.problems.tsp.candidates import candidate_lists
from tests.problems.test_three_opt import random_cities


def brute_force_lists(xy, k):
    n = len(xy)
    rows = []
    for i in range(n):
        d = ((xy - xy[i]) ** 2).sum(axis=1)
        others = np.delete(np.arange(n), i)
        rows.append(others[np.lexsort((others, d[others]))][:k])
    return np.array(rows)


@pytest.mark.parametrize("n, k, side", [(3, 40, 10), (50, 40, 20), (300, 10, 30), (400, 40, 10_000)])
def test_candidate_lists_equal_brute_force(rng, n, k, side):
    """Nearest first, ties (frequent on a small grid) by city index: exactly the brute-force order."""
    xy = random_cities(rng, n, side)
    np.testing.assert_array_equal(candidate_lists(xy, k), brute_force_lists(xy, min(k, n - 1)))


def test_candidate_lists_of_a_bundled_instance():
    from mols.problems.tsp.instance import load_tsp

    xy = load_tsp("pcb442").xy
    np.testing.assert_array_equal(candidate_lists(xy), brute_force_lists(xy, 40))


def brute_force_quadrant_lists(xy, k):
    """Each quadrant's k // 4 nearest (dx >= 0 and dy >= 0 picking the quadrant), then the nearest others, all in
    the brute-force order."""
    n = len(xy)
    nearest = brute_force_lists(xy, n - 1)
    rows = []
    for i in range(n):
        d = ((xy - xy[i]) ** 2).sum(axis=1)
        quadrant = 2 * (xy[:, 0] >= xy[i, 0]) + (xy[:, 1] >= xy[i, 1])
        chosen = [j for q in range(4) for j in [c for c in nearest[i] if quadrant[c] == q][:k // 4]]
        chosen += [c for c in nearest[i] if c not in chosen][:k - len(chosen)]
        rows.append(sorted(chosen, key=lambda j: (d[j], j)))
    return np.array(rows)


@pytest.mark.parametrize("n, k, side", [(5, 40, 10), (60, 40, 20), (300, 12, 30), (400, 40, 10_000)])
def test_quadrant_lists_equal_brute_force(rng, n, k, side):
    xy = random_cities(rng, n, side)
    lists = candidate_lists(xy, k, quadrant=True)
    np.testing.assert_array_equal(lists, brute_force_quadrant_lists(xy, min(k, n - 1)))
    assert not (lists == np.arange(n)[:, None]).any()  # never the city itself: 3-opt would count a no-op as a gain


def test_quadrant_lists_reach_other_clusters():
    """fl1577's 40 nearest cities of a city lie in its own cluster for most cities; quadrant lists reach further."""
    from mols.problems.tsp.instance import load_tsp

    xy = load_tsp("fl1577").xy
    far = lambda lists: np.sqrt(((xy[lists[:, -1]] - xy) ** 2).sum(axis=1)).mean()
    assert far(candidate_lists(xy, quadrant=True)) > 2 * far(candidate_lists(xy))
