"""apply_many (the batch of neighbors the searches build), walk (the solutions a tabu walk visits) and inverse (tabu search's forbidden move)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.neighborhoods import NEIGHBORHOODS
from tests.conftest import with_moves

# Every permutation neighborhood at the small sizes where it has a move (3-exchange needs three positions).
CASES = with_moves(sorted(name for name, nbh in NEIGHBORHOODS.items() if nbh.encoding == "permutation"),
                   [(n,) for n in range(2, 8)])


@pytest.mark.parametrize("name, n", CASES)
def test_apply_many_equals_apply_row_by_row(rng, name, n):
    nbh = NEIGHBORHOODS[name]
    perm = rng.permutation(n).astype(np.int32)
    ids = np.arange(nbh.n_neighbors(n))
    batch = nbh.apply_many(perm, ids)
    assert batch.shape == (len(ids), n) and batch.dtype == perm.dtype
    for t in ids:
        np.testing.assert_array_equal(batch[t], nbh.apply(perm, int(t)))
    shuffled = rng.permutation(ids)[: max(1, len(ids) // 2)]  # any subset, in any order, with a repeat
    shuffled = np.append(shuffled, shuffled[0])
    np.testing.assert_array_equal(nbh.apply_many(perm, shuffled), batch[shuffled])
    assert nbh.apply_many(perm, np.arange(0)).shape == (0, n)


@pytest.mark.parametrize("name, n", CASES)
def test_apply_many_leaves_the_permutation_alone(rng, name, n):
    nbh = NEIGHBORHOODS[name]
    perm = rng.permutation(n).astype(np.int32)
    copy = perm.copy()
    nbh.apply_many(perm, np.arange(nbh.n_neighbors(n)))
    np.testing.assert_array_equal(perm, copy)


@pytest.mark.parametrize("name, n", CASES)
def test_walk_takes_the_moves_in_turn(rng, name, n):
    nbh = NEIGHBORHOODS[name]
    perm = rng.permutation(n).astype(np.int32)
    ids = rng.integers(nbh.n_neighbors(n), size=12)
    visited, x = nbh.path(perm, ids), perm
    assert visited.shape == (12, n) and visited.dtype == perm.dtype
    for t, idx in enumerate(ids):
        x = nbh.apply(x, int(idx))
        np.testing.assert_array_equal(visited[t], x)
    assert nbh.path(perm, np.arange(0)).shape == (0, n)


@pytest.mark.parametrize("name, n", CASES)
def test_inverse_undoes_every_move(rng, name, n):
    nbh = NEIGHBORHOODS[name]
    perm = rng.permutation(n).astype(np.int32)
    for t in range(nbh.n_neighbors(n)):
        back = nbh.inverse(t, n)
        assert 0 <= back < nbh.n_neighbors(n)
        np.testing.assert_array_equal(nbh.apply(nbh.apply(perm, t), back), perm)
