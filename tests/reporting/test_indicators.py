"""Indicators on small hand-made fronts whose values are worked out by hand, and invariances."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mols.reporting import indicators, normalise, reference_set

# Reference set in 2-D: normalised, it is (0, 1), (0.5, 0.5), (1, 0).
REF = np.array([[0.0, 4.0], [2.0, 2.0], [4.0, 0.0]])
# Normalised: (0.25, 1), (1, 0.25).
FRONT = np.array([[1.0, 4.0], [4.0, 1.0]])


def test_hypervolume_of_the_reference_staircase_by_hand():
    # Up to (1.1, 1.1): slabs 0.5 x 0.1 + 0.5 x 0.6 + 0.1 x 1.1 = 0.05 + 0.30 + 0.11.
    assert indicators(REF, REF)["hv"] == pytest.approx(0.46)


def test_every_indicator_of_a_worse_front_by_hand():
    got = indicators(FRONT, REF)
    assert got["hv"] == pytest.approx(0.75 * 0.1 + 0.1 * 0.85)
    assert got["gd"] == pytest.approx(0.25)  # each point is 0.25 from its nearest reference point
    assert got["gd_plus"] == pytest.approx(0.25)
    assert got["igd"] == pytest.approx((0.25 + math.hypot(0.25, 0.5) + 0.25) / 3)
    assert got["igd_plus"] == pytest.approx((0.25 + 0.5 + 0.25) / 3)
    assert got["eps_add"] == pytest.approx(0.5)  # (0.5, 0.5) needs a shift of 0.5


def test_reference_set_against_itself_is_perfect():
    got = indicators(REF, REF)
    assert [got[k] for k in ("igd", "igd_plus", "gd", "gd_plus", "eps_add")] == [0.0] * 5


def test_single_ideal_point_in_3d_fills_the_box():
    ref = np.array([[0.0, 0.0, 5.0], [3.0, 0.0, 0.0], [0.0, 7.0, 0.0]])
    assert indicators(np.zeros((1, 3)), ref)["hv"] == pytest.approx(1.1**3)


def test_dominated_and_duplicate_points_leave_hypervolume_and_epsilon_unchanged():
    base = indicators(FRONT, REF)
    padded = np.vstack([FRONT, [[3.0, 4.0], [4.0, 4.0]], FRONT[:1]])  # dominated, dominated, duplicate
    got = indicators(padded, REF)
    assert got["hv"] == pytest.approx(base["hv"]) and got["eps_add"] == pytest.approx(base["eps_add"])


def test_a_better_front_has_more_hypervolume_and_less_igd():
    worse, better = indicators(FRONT, REF), indicators(np.vstack([FRONT, [[2.0, 2.0]]]), REF)
    assert better["hv"] > worse["hv"] and better["igd"] < worse["igd"]


def test_empty_front_gives_nan():
    assert all(math.isnan(v) for v in indicators(np.empty((0, 2)), REF).values())


def test_reference_set_is_the_nondominated_union_without_duplicates():
    a = np.array([[1.0, 5.0], [3.0, 3.0], [4.0, 4.0]])
    b = np.array([[3.0, 3.0], [5.0, 1.0], [2.0, 6.0]])
    got = reference_set([a, np.empty((0, 2)), b])
    assert sorted(map(tuple, got)) == [(1.0, 5.0), (3.0, 3.0), (5.0, 1.0)]


def test_normalise_maps_ideal_to_zero_and_nadir_to_one_and_keeps_a_flat_objective():
    F = np.array([[10.0, 7.0], [20.0, 7.0]])
    np.testing.assert_allclose(normalise(F, F.min(0), F.max(0)), [[0.0, 0.0], [1.0, 0.0]])
