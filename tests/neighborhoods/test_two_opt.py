"""2-opt by enumeration: ids, moves and reversed segments; the generic mapping tests cover it too."""

from __future__ import annotations

import numpy as np
import pytest

from mols.neighborhoods import NEIGHBORHOODS

TWO_OPT = NEIGHBORHOODS["2opt"]


@pytest.mark.parametrize("n", range(2, 12))
def test_every_pair_once_and_apply_reverses_it(n):
    perm = np.random.default_rng(n).permutation(n).astype(np.int32)
    ids = [TWO_OPT.index(i, j, n) for i in range(n) for j in range(i + 1, n)]
    assert sorted(ids) == list(range(TWO_OPT.n_neighbors(n))) == list(range(n * (n - 1) // 2))
    for i in range(n):
        for j in range(i + 1, n):
            t = TWO_OPT.index(i, j, n)
            assert TWO_OPT.move(t, n) == (i, j)
            assert TWO_OPT.index(j, i, n) == t
            expected = np.concatenate([perm[:i], perm[i:j + 1][::-1], perm[j + 1:]])
            np.testing.assert_array_equal(TWO_OPT.apply(perm, t), expected)
            assert TWO_OPT.inverse(t, n) == t  # a reversal undoes itself
            assert TWO_OPT.first_changed(i, j) == i
