"""Hamming-k neighborhoods by enumeration: every k-subset of the bits is exactly one id, and its neighbor
flips exactly those bits."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS

HAMMING = {k: NEIGHBORHOODS[f"hamming{k}"] for k in (1, 2, 3)}


@pytest.mark.parametrize("k", HAMMING)
@pytest.mark.parametrize("n", range(1, 13))
def test_every_subset_of_k_bits_is_one_id(k, n):
    nbh = HAMMING[k]
    if n < k:
        with pytest.raises(MolsError, match="no move"):
            nbh.n_neighbors(n)
        return
    moves = [tuple(m) for m in nbh.moves(np.arange(nbh.n_neighbors(n)), n)]
    assert nbh.n_neighbors(n) == math.comb(n, k)
    assert sorted(moves) == list(itertools.combinations(range(n), k))  # each once, indices increasing
    assert all(nbh.index(*m, n) == t for t, m in enumerate(moves))
    assert all(nbh.index(*m[::-1], n) == t for t, m in enumerate(moves))  # any order of the same bits


@pytest.mark.parametrize("k", HAMMING)
def test_neighbors_flip_exactly_the_moves_bits(k):
    n = 9
    nbh, x = HAMMING[k], np.random.default_rng(k).integers(0, 2, n).astype(np.int8)
    Y = nbh.apply_many(x, np.arange(nbh.n_neighbors(n)))
    for t, y in enumerate(Y):
        assert set(np.flatnonzero(y != x)) == set(nbh.move(t, n))
    assert len({y.tobytes() for y in Y}) == len(Y)
    for t in range(nbh.n_neighbors(n)):  # a flip undoes itself
        np.testing.assert_array_equal(nbh.apply(nbh.apply(x, t), nbh.inverse(t, n)), x)


@given(st.integers(3, 200_000), st.floats(0, 1))
def test_large_ids_round_trip(n, u):
    for nbh in HAMMING.values():
        t = min(int(u * nbh.n_neighbors(n)), nbh.n_neighbors(n) - 1)
        move = nbh.move(t, n)
        assert list(move) == sorted(set(move)) and 0 <= move[0] and move[-1] < n
        assert nbh.index(*move, n) == t


def test_a_repeated_bit_is_no_move():
    with pytest.raises(MolsError, match="not a hamming2 move"):
        HAMMING[2].index(3, 3, 10)
    with pytest.raises(MolsError, match="not a hamming3 move"):
        HAMMING[3].index(1, 4, 1, 10)
