"""Random Q3AP problems of both forms for the tests: the product form's A, B and E, and the general form's b and C,
symmetric or not; `big` values make the general form's costs int64."""

from __future__ import annotations

from mols.problems.q3ap import Q3ap, Q3apGeneral, Q3apGeneralInstance, Q3apInstance

TRANSPOSE = (3, 4, 5, 0, 1, 2)  # C[i, j, l, t, k, m] -> C[t, k, m, i, j, l]


def random_product(rng, n, symmetric, low=-9, high=30) -> Q3ap:
    a, b, e = (rng.integers(low, high, size=(n, n)) for _ in range(3))
    if symmetric:
        a, b, e = a + a.T, b + b.T, e + e.T
    return Q3ap(Q3apInstance(f"random{n}", a, b, e))


def random_general_problem(rng, n, symmetric, big=False) -> Q3apGeneral:
    high = 2**30 if big else 40
    b, c = rng.integers(-high, high, size=(n,) * 3), rng.integers(-high, high, size=(n,) * 6)
    if symmetric:
        c = c + c.transpose(TRANSPOSE)
    return Q3apGeneral(Q3apGeneralInstance(f"general{n}", b, c))
