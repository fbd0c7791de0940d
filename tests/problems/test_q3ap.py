"""The Q3AP: instances (format, the Nugent construction), the O(n) deltas of both neighborhoods against full
re-evaluation of every neighbor, the paper's tabu and ITS parameters, and brute force of all (p, q) on n <= 6
against the optimum the searches find."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.descent.its import IteratedTabu
from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import prepare
from mols.errors import InstanceError
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems import load_problem
from mols.problems.q3ap import Q3ap, Q3apInstance, from_nugent, read_q3ap, write_q3ap
from mols.problems.qap import load_qap
from mols.runner import RunConfig, build_search, solve

NEIGHBORHOODS = [BASIC, ADVANCED]


def random_q3ap(rng, n, symmetric, low=-9, high=30):
    a, b, e = (rng.integers(low, high, size=(n, n)) for _ in range(3))
    if symmetric:
        a, b, e = a + a.T, b + b.T, e + e.T
    return Q3ap(Q3apInstance(f"random{n}", a, b, e))


def brute_force(problem: Q3ap) -> int:
    """min f over all (n!)^2 pairs of permutations."""
    inst = problem.instance
    perms = np.array(list(itertools.permutations(range(problem.n))))
    EQ = inst.e[perms[:, :, None], perms[:, None, :]]  # (n!, n, n): E[q(i), q(t)]
    return int(min(np.einsum("it,qit->q", inst.a * inst.b[np.ix_(p, p)], EQ).min() for p in perms))


def test_file_round_trip_and_nugent_construction(tmp_path):
    nug = load_qap("nug12").instance
    made = from_nugent(nug)
    np.testing.assert_array_equal(made.a, nug.b)  # flows
    np.testing.assert_array_equal(made.b, nug.a[0])  # distances, for p and for q
    np.testing.assert_array_equal(made.e, nug.a[0])
    write_q3ap(made, tmp_path / "nug12.dat")
    again = read_q3ap(tmp_path / "nug12.dat")
    for attr in "abe":
        np.testing.assert_array_equal(getattr(again, attr), getattr(made, attr))
    bundled = load_problem("q3ap", "nug12")
    np.testing.assert_array_equal(bundled.instance.a, made.a)  # instances/q3ap/ is this construction
    assert bundled.symmetric and bundled.encoding.size == 24


def test_cost_is_the_six_index_sum():
    """f(p, q) = sum_{i,t} c_{i p(i) q(i), t p(t) q(t)} with c_{ijp,tkq} = A_it B_jk E_pq, term by term."""
    rng = np.random.default_rng(3)
    problem = random_q3ap(rng, 5, symmetric=False)
    inst, x = problem.instance, problem.random_solution(rng)
    p, q = x[:5], x[5:]
    want = sum(inst.a[i, t] * inst.b[p[i], p[t]] * inst.e[q[i], q[t]] for i in range(5) for t in range(5))
    assert problem.evaluate(x)[0] == want


def test_a_short_file_names_what_is_missing(tmp_path):
    path = tmp_path / "short.dat"
    path.write_text("3\n" + "1 2 3\n" * 8)
    with pytest.raises(InstanceError, match="3 matrices of 3 x 3"):
        read_q3ap(path)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n, symmetric", [(2, True), (3, False), (4, True), (5, False), (6, True), (7, False)])
def test_deltas_equal_full_evaluation_of_every_neighbor(nbh, n, symmetric):
    """Every move, moves overlapping in p and q (k = r, l = s, ...) included, on successive solutions."""
    rng = np.random.default_rng(100 + n)
    problem = random_q3ap(rng, n, symmetric)
    assert problem.symmetric == symmetric
    ev = prepare(problem, nbh, "cpu")
    for _ in range(3):
        x = problem.random_solution(rng)
        F = ev.evaluate(x)
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
def test_deltas_on_the_bundled_nug12(nbh):
    problem = load_problem("q3ap", "nug12")
    x = problem.random_solution(np.random.default_rng(1))
    F = prepare(problem, nbh, "cpu").evaluate(x)
    np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


def test_int64_costs_when_int32_could_overflow():
    rng = np.random.default_rng(5)
    problem = random_q3ap(rng, 6, symmetric=False, low=0, high=2**11)
    assert problem.dtype == np.int64
    ev = prepare(problem, ADVANCED, "cpu")
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(ev.evaluate(x), problem.evaluate(ADVANCED.apply_many(x, np.arange(ev.n_neighbors))))


def test_tenure_and_perturbation_are_the_papers():
    """Tabu tenure m / 4 (m: the neighborhood's size); ITS draws mu in [2, n] swaps per perturbation."""
    problem = load_problem("q3ap", "nug12")
    for nbh, m in ((BASIC, 132), (ADVANCED, 66 * 66)):
        config = RunConfig("nug12", problem="q3ap", neighborhood=nbh.name, algorithm="tabu", backend="cpu",
                           iterations=5000, weights=(1.0,))
        assert build_search(config).tenure == m // 4
    its = build_search(RunConfig("nug12", problem="q3ap", algorithm="its", backend="cpu", iterations=5000))
    assert isinstance(its, IteratedTabu) and its.tenure == 66 * 66 // 4 and its.strengths == (2, 12)
    drawn = []
    its.problem.encoding.perturb = lambda x, rng, strength: drawn.append(strength) or x  # a spy
    for _ in range(300):
        its.perturb(problem.encoding.initial())
    assert set(drawn) == set(range(2, 13))
    fixed = build_search(RunConfig("nug12", problem="q3ap", algorithm="its", backend="cpu", iterations=50, strength=3,
                                   tenure=7))
    assert fixed.strengths == (3, 3) and fixed.tenure == 7
    assert isinstance(build_search(RunConfig("nug12", problem="q3ap", algorithm="tabu", backend="cpu")),
                      AggregatedTabu)


@pytest.mark.parametrize("n, symmetric", [(5, False), (6, True)])
def test_brute_force_confirms_the_optimum_the_searches_find(n, symmetric):
    """ITS with either neighborhood (the paper's tenure and perturbation) reaches the optimum of all (n!)^2
    pairs, and stops there with it as the target."""
    problem = random_q3ap(np.random.default_rng(40 + n), n, symmetric, low=0, high=20)
    best = brute_force(problem)
    for nbh in NEIGHBORHOODS:
        result = solve(problem, neighborhood=nbh, algorithm="its", backend="cpu", iterations=3000, seed=1,
                       run_length=100, target=best)
        assert result.archive.F.min() == best
        assert problem.evaluate(result.archive.X[0])[0] == best
