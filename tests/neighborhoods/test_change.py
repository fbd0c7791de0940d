"""The change neighborhood by enumeration: every id changes one position to one of its other values,
each (position, new value) exactly once; the inverse undoes a move; ids and moves round-trip."""

from __future__ import annotations

import numpy as np
import pytest

from mols.errors import MolsError
from mols.neighborhoods.change import value_changes

SHAPES = [(1, 2), (3, 2), (4, 3), (5, 5), (6, 7)]  # (n, k)


def all_ids(nbh, n: int) -> np.ndarray:
    return np.arange(nbh.n_neighbors(n))


@pytest.mark.parametrize("n, k", SHAPES)
def test_every_other_value_of_every_position_once(rng, n, k):
    nbh = value_changes(k)
    x = rng.integers(0, k, n).astype(np.int32)
    Y = nbh.apply_many(x, all_ids(nbh, n))
    assert len(Y) == (k - 1) * n
    changed = Y != x  # (neighbors, n): exactly one position differs in each neighbor
    assert (changed.sum(axis=1) == 1).all()
    positions = changed.argmax(axis=1)
    changes = {(int(i), int(y[i])) for i, y in zip(positions, Y)}
    assert changes == {(i, c) for i in range(n) for c in range(k) if c != x[i]}  # so the neighbors are distinct
    assert (positions == all_ids(nbh, n) // (k - 1)).all()  # the k - 1 ids of a position are consecutive


@pytest.mark.parametrize("n, k", SHAPES)
def test_the_inverse_changes_the_position_back(rng, n, k):
    nbh = value_changes(k)
    x = rng.integers(0, k, n).astype(np.int32)
    for t in all_ids(nbh, n):
        back = nbh.inverse(int(t), n)
        assert nbh.move(back, n)[0] == nbh.move(int(t), n)[0]
        np.testing.assert_array_equal(nbh.path(x, np.array([t, back]))[-1], x)


@pytest.mark.parametrize("n, k", SHAPES)
def test_ids_and_moves_round_trip(n, k):
    nbh = value_changes(k)
    moves = nbh.moves(all_ids(nbh, n), n)
    assert {tuple(m) for m in moves} == {(i, r) for i in range(n) for r in range(k - 1)}
    assert [nbh.index(*move, n) for move in moves.tolist()] == all_ids(nbh, n).tolist()


def test_bad_moves_and_sizes_are_refused():
    nbh = value_changes(3)
    with pytest.raises(MolsError, match="not a change move"):
        nbh.index(0, 2, 5)  # rank 2: there are only 2 other values
    with pytest.raises(MolsError, match="out of range"):
        nbh.move(10, 5)
    with pytest.raises(MolsError, match="at least 2 values"):
        value_changes(1)
    assert value_changes(3) is nbh  # one neighborhood (and one compilation) per k
