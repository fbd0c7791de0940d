"""The general Q3AP: the cost is the formula term by term, the O(n) deltas of both neighborhoods equal the full
evaluation of every neighbor, the product form's instances in general form give the same objective values and the
same neighborhood evaluations, random instances, and brute force of all (p, q) against the searches."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mols.problems.q3ap.general
from mols.backends import prepare
from mols.errors import InstanceError, MolsError
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems import load_problem
from mols.problems.q3ap import Q3apGeneral, Q3apGeneralInstance, Q3apInstance, from_product, random_general
from mols.runner import solve
from tests.problems.q3ap_cases import TRANSPOSE, random_general_problem, random_product

NEIGHBORHOODS = [BASIC, ADVANCED]


def test_cost_is_the_formula_term_by_term():
    """f(p, q) = sum_i b[i, p(i), q(i)] + sum_{i, t} C[i, p(i), q(i), t, p(t), q(t)]."""
    rng = np.random.default_rng(3)
    problem = random_general_problem(rng, 4, symmetric=False)
    b, c = problem.instance.b, problem.instance.c
    for _ in range(5):
        x = problem.random_solution(rng)
        p, q = x[:4], x[4:]
        want = sum(int(b[i, p[i], q[i]]) for i in range(4)) + sum(
            int(c[i, p[i], q[i], t, p[t], q[t]]) for i in range(4) for t in range(4))
        assert problem.evaluate(x)[0] == want


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n, symmetric", [(2, True), (2, False), (3, False), (4, True), (5, False), (6, True),
                                          (7, False)])
def test_deltas_equal_full_evaluation_of_every_neighbor(nbh, n, symmetric):
    """Every move, moves overlapping in p and q (k = r, l = s, ...) included, on several solutions."""
    rng = np.random.default_rng(200 + n)
    problem = random_general_problem(rng, n, symmetric)
    assert problem.symmetric == symmetric and problem.dtype == np.int32
    ev = prepare(problem, nbh, "cpu")
    for _ in range(3):
        x = problem.random_solution(rng)
        F = ev.evaluate(x)
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


@pytest.mark.parametrize("symmetric", [True, False])
def test_int64_costs_when_int32_could_overflow(symmetric):
    rng = np.random.default_rng(5)
    problem = random_general_problem(rng, 5, symmetric, big=True)
    assert problem.dtype == np.int64
    for nbh in NEIGHBORHOODS:
        ev = prepare(problem, nbh, "cpu")
        x = problem.random_solution(rng)
        F = ev.evaluate(x)
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))
        assert np.abs(F).max() > 2**31  # the sums do pass int32


@pytest.mark.parametrize("n, symmetric", [(2, True), (3, False), (5, True), (6, False), (7, True)])
def test_product_form_equals_general_form(n, symmetric):
    """C[i, j, l, t, k, m] = A[i, t] B[j, k] E[l, m] and b = 0: the same objective values and the same neighborhood
    evaluations, both neighborhoods, on random product instances."""
    rng = np.random.default_rng(300 + n)
    product = random_product(rng, n, symmetric)
    general = Q3apGeneral(from_product(product.instance))
    assert general.symmetric == product.symmetric == symmetric
    X = np.array([product.random_solution(rng) for _ in range(20)])
    np.testing.assert_array_equal(general.evaluate(X), product.evaluate(X))
    for nbh in NEIGHBORHOODS:
        evaluators = prepare(product, nbh, "cpu"), prepare(general, nbh, "cpu")
        for x in X[:3]:
            np.testing.assert_array_equal(*(ev.evaluate(x).astype(np.int64) for ev in evaluators))


def test_bundled_nug12_in_general_form():
    product = load_problem("q3ap", "nug12")
    general = Q3apGeneral(from_product(product.instance))
    assert general.symmetric and general.instance.c.shape == (12,) * 6 and not general.instance.b.any()
    x = product.random_solution(np.random.default_rng(1))
    for nbh in NEIGHBORHOODS:
        np.testing.assert_array_equal(prepare(general, nbh, "cpu").evaluate(x), prepare(product, nbh, "cpu").evaluate(x))


def test_a_product_past_int32_is_refused():
    big = np.full((2, 2), 2**12)
    with pytest.raises(MolsError, match=r"big: products A\[i,t\] B\[j,k\] E\[l,m\] reach 68,719,476,736"):
        from_product(Q3apInstance("big", big, big, big))


def test_random_instances_are_reproducible_and_named():
    one, again = random_general(4, 7), load_problem("q3ap", "random:4:7")
    assert isinstance(again, Q3apGeneral) and again.instance_name == "random:4:7"
    np.testing.assert_array_equal(one.c, again.instance.c)
    np.testing.assert_array_equal(one.b, again.instance.b)
    assert one.c.min() >= 0 and one.c.max() < 100 and len(np.unique(one.c)) > 50
    assert not np.array_equal(one.c, random_general(4, 8).c)
    with pytest.raises(InstanceError, match="random:1:3: a Q3AP needs n >= 2"):
        load_problem("q3ap", "random:1:3")


def test_the_symmetric_test_reads_the_whole_matrix(monkeypatch):
    """A single asymmetric entry anywhere makes the instance asymmetric, C compared in blocks of 5 rows."""
    monkeypatch.setattr(mols.problems.q3ap.general, "BLOCK_ENTRIES", 5 * 4**3)
    c = np.random.default_rng(9).integers(0, 9, size=(4,) * 6)
    c = c + c.transpose(TRANSPOSE)
    b = np.zeros((4,) * 3, np.int64)
    assert Q3apGeneralInstance("sym", b, c).symmetric
    for at in ((3, 3, 3, 2, 1, 0), (0, 0, 0, 0, 0, 1), (2, 1, 0, 3, 3, 3)):
        edited = c.copy()
        edited[at] += 1
        assert not Q3apGeneralInstance("edited", b, edited).symmetric


def brute_force(problem) -> int:
    """min f over all (n!)^2 pairs of permutations."""
    perms = np.array(list(itertools.permutations(range(problem.n))))
    X = np.array([np.concatenate([p, q]) for p, q in itertools.product(perms, perms)])
    return int(problem.evaluate(X).min())


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
def test_brute_force_confirms_the_optimum_the_searches_find(nbh):
    """ITS (the paper's tenure and perturbation) reaches the optimum of all (n!)^2 pairs of a random general instance
    with a linear term, and stops there with it as the target."""
    problem = Q3apGeneral(random_general(5, 11))
    best = brute_force(problem)
    result = solve(problem, neighborhood=nbh, algorithm="its", backend="cpu", iterations=3000, seed=1, run_length=100,
                   target=best)
    assert result.archive.F.min() == best and problem.evaluate(result.archive.X[0])[0] == best
