"""Solution kinds: random solutions, checks, perturbations and text, for every encoding."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mols.encodings import BinaryVector, IntegerVector, Permutation, Permutations, RealVector
from mols.errors import MolsError

KINDS = [Permutation(7), BinaryVector(9), IntegerVector(6, 4), RealVector(5, -2.0, 3.5), Permutations(2, 5)]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_random_initial_and_perturbed_solutions_are_valid(kind):
    rng = np.random.default_rng(1)
    for x in (kind.random(rng), kind.initial(), kind.perturb(kind.random(rng), rng, 3)):
        assert x.dtype == kind.dtype and x.shape == (kind.size,)
        np.testing.assert_array_equal(kind.check(x), x)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_text_round_trip(kind):
    x = kind.random(np.random.default_rng(2))
    np.testing.assert_array_equal(kind.parse(kind.format(x)), x)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_a_perturbation_changes_the_solution_by_its_strength(kind):
    rng = np.random.default_rng(3)
    x = kind.random(rng)
    y = kind.perturb(x, rng, 1)
    changed = int((x != y).sum())
    assert changed == (2 if kind.name.startswith("permutation") else 1)
    assert x is not y and kind.check(x) is not None


@pytest.mark.parametrize("kind, bad", [
    (Permutation(3), [0, 1]), (Permutation(3), [0, 1, 1]), (Permutation(3), [0, 1, 3]), (Permutation(3), [[0, 1, 2]]),
    (Permutation(3), [0.0, 1.0, 2.0]), (BinaryVector(3), [0, 2, 1]), (IntegerVector(3, 2), [0, 1, 2]),
    (RealVector(2, 0, 1), [0.5, 1.5]), (Permutations(2, 3), [0, 1, 2, 0, 0, 1]),
])
def test_checks_name_what_is_wrong(kind, bad):
    with pytest.raises(MolsError, match=re.escape(f"--solution must be {kind.describe()}")):
        kind.check(bad, "--solution")


def test_a_permutation_swap_is_uniform_over_the_pairs_of_positions():
    """Each of the C(4, 2) = 6 swaps of a 4-permutation comes up about equally often, and never a position
    with itself."""
    rng, x = np.random.default_rng(5), np.arange(4, dtype=np.int32)
    counts = {}
    for _ in range(6000):
        pair = tuple(np.flatnonzero(Permutation(4).perturb(x, rng, 1) != x))
        counts[pair] = counts.get(pair, 0) + 1
    assert sorted(counts) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert all(900 < count < 1100 for count in counts.values()), counts  # 1,000 each: 6.9 sd apart


def test_a_pair_of_permutations_reads_with_a_bar():
    kind = Permutations(2, 3)
    assert kind.format(np.array([2, 0, 1, 0, 1, 2])) == "2 0 1 | 0 1 2"
    with pytest.raises(MolsError, match="--solution"):
        kind.parse("2 0 1 | 0 1", "--solution")
