"""Neighborhoods by enumeration: every id is a distinct valid move, and the moves are all there."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS, get_neighborhood

# Moves of two positions (3-exchange's cycles of three: test_three_exchange.py).
PERMUTATION_MOVES = sorted(name for name, nbh in NEIGHBORHOODS.items() if nbh.encoding == "permutation"
                           and nbh.arity == 2)

SMALL = range(2, 10)


def insert(perm, i, j):
    """Oracle: take the element at position i out and put it back at position j."""
    out = list(perm)
    out.insert(j, out.pop(i))
    return tuple(out)


def swap(perm, i, j):
    out = list(perm)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def reverse(perm, i, j):
    lo, hi = min(i, j), max(i, j)
    return tuple(perm[:lo]) + tuple(perm[lo:hi + 1][::-1]) + tuple(perm[hi + 1:])


ORACLES = {"insertion": insert, "swap": swap, "2opt": reverse}


@pytest.mark.parametrize("name", PERMUTATION_MOVES)
@pytest.mark.parametrize("n", SMALL)
def test_ids_decode_to_distinct_moves_and_back(name, n):
    nbh = NEIGHBORHOODS[name]
    moves = [nbh.move(t, n) for t in range(nbh.n_neighbors(n))]
    assert len(set(moves)) == len(moves)
    for t, (i, j) in enumerate(moves):
        assert 0 <= i < n and 0 <= j < n and i != j
        assert nbh.index(i, j, n) == t


@pytest.mark.parametrize("name", PERMUTATION_MOVES)
@pytest.mark.parametrize("n", SMALL)
def test_neighbors_are_exactly_the_oracle_moves(name, n):
    """apply(id) is the oracle's neighbor of the move, and the ids reach every distinct neighbor."""
    nbh, oracle = NEIGHBORHOODS[name], ORACLES[name]
    perm = tuple(np.random.default_rng(n).permutation(n))
    got = [tuple(nbh.apply(np.array(perm), t)) for t in range(nbh.n_neighbors(n))]
    for t, neighbor in enumerate(got):
        assert neighbor == oracle(perm, *nbh.move(t, n))
    every = {oracle(perm, i, j) for i, j in itertools.permutations(range(n), 2)} - {perm}
    assert set(got) == every
    assert len(got) == len(every)  # no neighbor twice, none equal to perm


@pytest.mark.parametrize("n", SMALL)
def test_neighborhood_sizes(n):
    assert NEIGHBORHOODS["insertion"].n_neighbors(n) == (n - 1) ** 2
    assert NEIGHBORHOODS["swap"].n_neighbors(n) == n * (n - 1) // 2


def test_insertion_equivalent_moves_share_one_id():
    """(i, i+1) and (i+1, i) give the same permutation: one id serves both."""
    nbh = NEIGHBORHOODS["insertion"]
    for i in range(7):
        assert nbh.index(i, i + 1, 8) == nbh.index(i + 1, i, 8)


@pytest.mark.parametrize("name", PERMUTATION_MOVES)
@given(n=st.integers(2, 20_000), u=st.floats(0, 1, exclude_max=True))
def test_large_ids_round_trip(name, n, u):
    """The square-root decodings stay exact for neighborhoods of hundreds of millions of moves."""
    nbh = NEIGHBORHOODS[name]
    t = int(u * nbh.n_neighbors(n))
    i, j = nbh.move(t, n)
    assert nbh.index(i, j, n) == t


def test_swap_matches_the_papers_propositions():
    """Proposition 1 of Luong et al. (IEEE TC 2013): f(i, j) = i(n-1) + (j-1) - i(i+1)/2."""
    n = 11
    for i, j in itertools.combinations(range(n), 2):
        assert NEIGHBORHOODS["swap"].index(i, j, n) == i * (n - 1) + (j - 1) - i * (i + 1) // 2


@pytest.mark.parametrize("call", [lambda nbh: nbh.move(-1, 5), lambda nbh: nbh.move(10**6, 5),
                                  lambda nbh: nbh.index(2, 2, 5), lambda nbh: nbh.index(0, 5, 5),
                                  lambda nbh: nbh.n_neighbors(1)])
def test_bad_moves_raise(call):
    with pytest.raises(MolsError):
        call(NEIGHBORHOODS["insertion"])


def test_unknown_neighborhood():
    with pytest.raises(MolsError, match="unknown neighborhood"):
        get_neighborhood("3-opt")
