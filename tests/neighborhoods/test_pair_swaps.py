"""The Q3AP's neighborhoods on a pair of permutations, by enumeration: every id is a distinct valid move,
its (k, l, r, s) mapping is the move's, and the neighbors are exactly the swaps in p or q (basic) or in
both (advanced)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.neighborhoods import NEIGHBORHOODS
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC, SWAPS

SMALL = range(2, 9)


def swapped(x, n, k, l, r, s):
    """Oracle: (p, q) with positions k, l of p and r, s of q exchanged (-1: none)."""
    y = list(x)
    for a, b, at in ((k, l, 0), (r, s, n)):
        if a >= 0:
            y[at + a], y[at + b] = y[at + b], y[at + a]
    return tuple(y)


def expected_moves(name, n):
    pairs = list(itertools.combinations(range(n), 2))
    if name == "basic":
        return [(part, i, j) for part in (0, 1) for i, j in pairs]
    return [(k, l, r, s) for k, l in pairs for r, s in pairs]


@pytest.mark.parametrize("nbh", [BASIC, ADVANCED], ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n", SMALL)
def test_ids_decode_to_every_move_once_and_back(nbh, n):
    assert NEIGHBORHOODS[nbh.name] is nbh
    size = nbh.n_neighbors(n)
    assert size == (n * (n - 1) if nbh is BASIC else (n * (n - 1) // 2) ** 2)
    moves = [nbh.move(t, n) for t in range(size)]
    assert moves == expected_moves(nbh.name, n)  # every move, once, in id order
    for t, move in enumerate(moves):
        assert nbh.index(*move, n) == t
        assert nbh.inverse(t, n) == t
    np.testing.assert_array_equal(nbh.moves(np.arange(size), n), moves)


@pytest.mark.parametrize("nbh", [BASIC, ADVANCED], ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n", SMALL)
def test_swaps_mapping_and_neighbors_are_the_oracles(nbh, n):
    """Thread id -> (k, l, r, s): the swaps apply() makes; the neighbors are all distinct."""
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.permutation(n), rng.permutation(n)]).astype(np.int32)
    got = set()
    for t in range(nbh.n_neighbors(n)):
        k, l, r, s = SWAPS[nbh.name](t, n)
        move = nbh.move(t, n)
        if nbh is BASIC:
            assert (k, l, r, s) == ((move[1], move[2], -1, -1) if move[0] == 0 else (-1, -1, move[1], move[2]))
        else:
            assert (k, l, r, s) == move
        neighbor = tuple(nbh.apply(x, t))
        assert neighbor == swapped(x, n, k, l, r, s)
        got.add(neighbor)
    assert len(got) == nbh.n_neighbors(n)
    assert tuple(x) not in got


def test_no_such_move_is_an_error():
    from mols.errors import MolsError

    with pytest.raises(MolsError, match="is not a basic move"):
        BASIC.index(2, 0, 1, 5)
    with pytest.raises(MolsError, match="is not a advanced move"):
        ADVANCED.index(1, 1, 0, 2, 5)
