"""The adaptive neighborhood by enumeration on small sizes: each neighbor moves the coordinate it draws and each
other with the key's subset chance, by at most its radius (the key's radius over 2^(t % 8)), inside the box; the
levels travel in the draw key, the draws repeat for a key and change with it; the Weierstrass kernel on it equals
the reference evaluation (within tests/problems/test_weierstrass.py's CPU tolerance: libm's sin against NumPy's)."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.errors import MolsError
from mols.neighborhoods.adaptive import ADAPTIVE, COUNT, OCTAVES, adaptive, level_scale, scaled_key
from mols.problems.weierstrass import load_weierstrass

KEY = np.array([11, 5], dtype=np.uint64)
CPU_ATOL = {"float64": 1e-12, "float32": 5e-6}  # per coordinate, as tests/problems/test_weierstrass.py


def steps(nbh, n: int, radius: int, subset: int, key=KEY, x=None) -> np.ndarray:
    """(count, n): every neighbor of x (the origin by default) minus x, drawn with these levels."""
    x = np.zeros(n) if x is None else x
    return nbh.apply_many(x, np.arange(nbh.n_neighbors(n)), scaled_key(key, radius, subset)) - x


def test_sizes_moves_and_errors():
    assert ADAPTIVE.n_neighbors(10) == COUNT and adaptive(7).n_neighbors(3) == 7 and adaptive(64) is adaptive(64)
    assert ADAPTIVE.name == "adaptive" and ADAPTIVE.sampled and ADAPTIVE.encoding == "real"
    nbh = adaptive(6)
    assert nbh.moves(np.arange(6), 4).ravel().tolist() == list(range(6))
    assert [nbh.inverse(t, 4) for t in range(6)] == list(range(6))
    with pytest.raises(MolsError, match="at least 1 neighbor"):
        adaptive(0)
    with pytest.raises(MolsError, match="low < high"):
        adaptive(10, 1.0, 1.0)
    with pytest.raises(MolsError, match="out of range"):
        scaled_key(KEY, 256, 0)
    with pytest.raises(MolsError, match="out of range"):
        scaled_key(np.array([1, 2**48], dtype=np.uint64), 0, 0)


def test_the_levels_are_exact_powers_and_travel_in_the_key():
    assert [level_scale(level) for level in (0, 4, 8, 41)] == [1.0, 0.5, 0.25, 2.0 ** -10.25]
    key = scaled_key(KEY, 9, 200)
    assert int(key[0]) == 11 and int(key[1]) == 5 | 9 << 56 | 200 << 48


@pytest.mark.parametrize("n", [1, 2, 5, 12])
@pytest.mark.parametrize("radius", [4, 13, 40])
def test_every_neighbor_stays_within_its_radius(n, radius):
    step = steps(adaptive(64), n, radius, 255)  # the box's width is 2; radius / 2^(t % 8) for neighbor t
    bound = 2.0 * level_scale(radius) / 2.0 ** (np.arange(64) % OCTAVES)
    assert (np.abs(step).max(axis=1) <= bound).all()
    assert (np.abs(step).max(axis=1) > bound / 1e6).mean() > 0.9  # they use their radius, not nothing


@pytest.mark.parametrize("n", [1, 3, 10])
def test_subset_levels_set_how_many_coordinates_move(n):
    nbh = adaptive(2000)
    assert ((steps(nbh, n, 8, 255) != 0).sum(axis=1) == 1).all()  # chance 2^-63.75: the one drawn alone
    assert ((steps(nbh, n, 8, 0) != 0).sum(axis=1) == n).all()  # chance 1: all of them
    moved = (steps(nbh, n, 8, 8) != 0).sum(axis=1)  # chance 1/4 beside the drawn one
    expected, sd = 1 + (n - 1) / 4, np.sqrt((n - 1) * 3 / 16 / 2000)
    assert abs(moved.mean() - expected) <= 5 * sd + 1e-12
    drawn = np.argmax(steps(nbh, n, 8, 255) != 0, axis=1)  # the coordinate each moves alone is uniform
    assert np.bincount(drawn, minlength=n).min() > 2000 / n / 2


def test_draws_repeat_change_with_the_key_and_levels_and_clip_to_the_box():
    nbh, n = adaptive(50), 4
    first = steps(nbh, n, 6, 4)
    np.testing.assert_array_equal(first, steps(nbh, n, 6, 4))
    for key, radius in ((KEY, 7), (np.array([11, 6], dtype=np.uint64), 6), (np.array([12, 5], dtype=np.uint64), 6)):
        assert not np.array_equal(first, steps(nbh, n, radius, 4, key))
    x = np.array([1.0, -1.0, 0.99, 0.0])
    moved = nbh.apply_many(x, np.arange(50), scaled_key(KEY, 0, 0))  # radius: the whole box
    assert (moved >= -1.0).all() and (moved <= 1.0).all() and (moved == 1.0).any() and (moved == -1.0).any()
    box = adaptive(50, -4.0, 4.0).apply_many(np.zeros(n), np.arange(50), scaled_key(KEY, 0, 0))
    assert np.abs(box).max() > 1.0 and np.abs(box).max() <= 4.0


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_the_weierstrass_kernel_equals_the_reference_on_it(precision):
    problem, nbh = load_weierstrass(f"6:{precision}"), adaptive(300)
    x, key = problem.random_solution(np.random.default_rng(2)), scaled_key(KEY, 10, 6)
    F = mols.prepare(problem, nbh, "cpu").evaluate(x, key)
    reference = problem.evaluate(nbh.apply_many(x, np.arange(300), key))
    np.testing.assert_allclose(F, reference, rtol=0, atol=CPU_ATOL[precision] * problem.n)
