"""3-exchange by enumeration: every 3-cycle of positions exactly once, the ids in the triples' lexicographic order,
the mapping's inverse, neighbors against rotations built here, the tabu inverse, and large ids."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mols.errors import MolsError
from mols.neighborhoods import get_neighborhood
from mols.neighborhoods.three_exchange import next_move, rank

THREE = get_neighborhood("3exchange")
SMALL = range(3, 10)


def rotated(perm, cycle):
    """Reference: the values at the cycle's positions (a, b, c) moved on, a's to b, b's to c, c's to a."""
    a, b, c = cycle
    out = list(perm)
    out[b], out[c], out[a] = perm[a], perm[b], perm[c]
    return tuple(out)


def every_cycle(n):
    """Each triple i < j < k in lexicographic order, with its two cycles: forwards (i, j, k), then (i, k, j)."""
    return [cycle for i, j, k in itertools.combinations(range(n), 3) for cycle in ((i, j, k), (i, k, j))]


@pytest.mark.parametrize("n", SMALL)
def test_ids_are_every_3_cycle_once_in_order_and_back(n):
    """Id 2r rotates the r-th triple of the lexicographic order forwards, id 2r + 1 backwards; 2 C(n, 3) ids."""
    assert THREE.n_neighbors(n) == 2 * comb(n, 3)
    moves = [THREE.move(t, n) for t in range(THREE.n_neighbors(n))]
    assert moves == every_cycle(n)
    for t, (a, b, c) in enumerate(moves):
        assert a < b and a < c and len({a, b, c}) == 3
        assert THREE.index(a, b, c, n) == THREE.index(b, c, a, n) == THREE.index(c, a, b, n) == t  # any rotation


@pytest.mark.parametrize("n", SMALL)
def test_rank_closed_form_counts_the_triples_before(n):
    """rank(i, j, k) (the encoding, a closed form like Proposition 1's for pairs) is the triple's place in order."""
    for r, (i, j, k) in enumerate(itertools.combinations(range(n), 3)):
        assert rank(i, j, k, n) == r
    assert THREE.moves(np.arange(THREE.n_neighbors(n)), n).tolist() == [list(c) for c in every_cycle(n)]


@pytest.mark.parametrize("n", SMALL)
def test_neighbors_are_the_reference_rotations(n):
    """apply(id) rotates the move's values; the ids reach every permutation that differs from x in exactly three
    positions by a 3-cycle, each once, and never x itself."""
    perm = tuple(np.random.default_rng(n).permutation(n))
    got = [tuple(THREE.apply(np.array(perm), t)) for t in range(THREE.n_neighbors(n))]
    for t, neighbor in enumerate(got):
        assert neighbor == rotated(perm, THREE.move(t, n))
        assert sum(a != b for a, b in zip(neighbor, perm)) == 3
    every = {rotated(perm, cycle) for cycle in itertools.permutations(range(n), 3)}
    assert set(got) == every and len(got) == len(every) and perm not in every


@pytest.mark.parametrize("n", SMALL)
def test_source_and_first_changed_describe_each_neighbor(n):
    """What the flowshop's kernel reads of a move: position p of the neighbor holds x[source(move, p)], and the
    positions before first_changed keep their values."""
    x = np.random.default_rng(n).permutation(n)
    for t in range(THREE.n_neighbors(n)):
        move, y = THREE.move(t, n), THREE.apply(x, t)
        assert [x[THREE.source(*move, p)] for p in range(n)] == y.tolist()
        first = THREE.first_changed(*move)
        assert first == min(move) and (y[:first] == x[:first]).all() and y[first] != x[first]


@pytest.mark.parametrize("n", SMALL)
def test_inverse_is_the_other_rotation_and_undoes_the_move(n):
    x = np.random.default_rng(n).permutation(n)
    for t in range(THREE.n_neighbors(n)):
        back = THREE.inverse(t, n)
        assert back == t ^ 1 and THREE.inverse(back, n) == t
        a, b, c = THREE.move(t, n)
        assert THREE.move(back, n) == (a, c, b)
        np.testing.assert_array_equal(THREE.apply(THREE.apply(x, t), back), x)


@pytest.mark.parametrize("n", SMALL)
def test_next_move_steps_through_the_ids(n):
    """next_move (the TSP kernel walks a chunk of ids with it) gives the move of the next id."""
    for t in range(THREE.n_neighbors(n) - 1):
        assert tuple(next_move(*THREE.move(t, n), n)) == THREE.move(t + 1, n)


@given(n=st.integers(3, 20_000), u=st.floats(0, 1, exclude_max=True))
def test_large_ids_round_trip(n, u):
    """The cube and square roots stay exact up to 2.7e12 moves (n = 20,000)."""
    t = int(u * THREE.n_neighbors(n))
    a, b, c = THREE.move(t, n)
    assert 0 <= a < min(b, c) and max(b, c) < n and b != c
    assert THREE.index(a, b, c, n) == t


@pytest.mark.parametrize("n", [3, 4, 1000, 20_000])
def test_first_and_last_ids(n):
    last = THREE.n_neighbors(n) - 1
    assert THREE.move(0, n) == (0, 1, 2) and THREE.move(1, n) == (0, 2, 1)
    assert THREE.move(last, n) == (n - 3, n - 1, n - 2)


@pytest.mark.parametrize("call", [lambda: THREE.n_neighbors(2), lambda: THREE.move(-1, 5), lambda: THREE.move(20, 5),
                                  lambda: THREE.index(1, 1, 2, 5), lambda: THREE.index(0, 1, 5, 5)])
def test_bad_moves_raise(call):
    with pytest.raises(MolsError):
        call()
