"""The crowns neighborhood by enumeration: neighbor t lies in crown t + 1 (before clipping), its direction
is uniform on the sphere, the draws repeat for a key and change with it, and clipping keeps the box."""

from __future__ import annotations

import numpy as np
import pytest

from mols.errors import MolsError
from mols.neighborhoods.crowns import CROWNS, HIGH, LOW, PAPER_COUNT, crowns

KEY = np.array([11, 5], dtype=np.uint64)
SLACK = 1e-12  # relative: the distance of a neighbor is its radius up to the rounding of g / |g|


def steps(nbh, n: int, key=KEY) -> np.ndarray:
    """(count, n): every neighbor of the origin, where nothing is clipped (the radii stay below 1 / n)."""
    return nbh.apply_many(np.zeros(n), np.arange(nbh.n_neighbors(n)), key)


def test_sizes_and_moves():
    assert CROWNS.n_neighbors(10) == PAPER_COUNT == 10_000 and crowns(7).n_neighbors(3) == 7
    assert CROWNS.name == crowns(5).name == "crowns" and CROWNS.sampled and CROWNS.encoding == "real"
    assert crowns(64) is crowns(64)  # one compiled neighborhood per count
    nbh = crowns(6)
    assert nbh.moves(np.arange(6), 4).ravel().tolist() == list(range(6))
    assert [nbh.inverse(t, 4) for t in range(6)] == list(range(6))  # tabu: the crown just taken
    with pytest.raises(MolsError, match="at least 1 crown"):
        crowns(0)


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_every_neighbor_lies_in_its_crown(n):
    count = 40
    distance = np.linalg.norm(steps(crowns(count), n), axis=1)
    inner, outer = np.arange(count) / (n * count), np.arange(1, count + 1) / (n * count)
    assert (distance >= inner * (1 - SLACK)).all() and (distance <= outer * (1 + SLACK)).all()


def test_directions_are_uniform_on_the_sphere_and_radii_uniform_in_the_crowns():
    n, count = 3, 4000
    step = steps(crowns(count), n)
    distance = np.linalg.norm(step, axis=1)
    unit = step / distance[:, None]
    # 4,000 directions: each coordinate's mean is 0 and its mean square 1/3, within 5 standard errors
    assert np.abs(unit.mean(axis=0)).max() < 5 * np.sqrt(1 / 3 / count)
    assert np.abs((unit**2).mean(axis=0) - 1 / 3).max() < 5 * np.sqrt(4 / 45 / count)
    within = distance * n * count - np.arange(count)  # where in its crown, 0..1
    assert abs(within.mean() - 0.5) < 5 * np.sqrt(1 / 12 / count) and within.min() >= -SLACK


def test_draws_repeat_for_a_key_change_with_it_and_the_step_does_not_depend_on_x():
    nbh, n = crowns(50), 4
    first = steps(nbh, n)
    np.testing.assert_array_equal(first, steps(nbh, n))
    for other in ([11, 6], [12, 5]):
        assert not np.isclose(first, steps(nbh, n, np.array(other, dtype=np.uint64))).any()
    assert len({row.tobytes() for row in first}) == len(first)
    x = np.array([0.3, -0.2, 0.1, 0.0])
    np.testing.assert_allclose(nbh.apply_many(x, np.arange(50), KEY) - x, first, atol=1e-15)


def test_clipping_keeps_the_box():
    nbh, n = crowns(30), 2
    corner = np.array([HIGH, LOW])
    got = nbh.apply_many(corner, np.arange(30), KEY)
    np.testing.assert_array_equal(got, np.clip(corner + steps(nbh, n), LOW, HIGH))
    assert (got[:, 0] <= HIGH).all() and (got[:, 1] >= LOW).all() and (got[:, 0] < HIGH).any()


def test_apply_and_path_use_the_same_draws():
    nbh, x = crowns(20), np.array([0.5, -0.5])
    keys = np.array([[1, 1], [1, 2], [1, 3]], dtype=np.uint64)
    ids = np.array([3, 19, 0])
    path = nbh.path(x, ids, keys)
    for r in range(3):
        np.testing.assert_array_equal(path[r], nbh.apply(path[r - 1] if r else x, int(ids[r]), keys[r]))
