"""The NumPy reference evaluation, checked against values stated in instances/flowshop/SOURCE.md
and against a brute-force schedule; and the offset-form state tables against it."""

from __future__ import annotations

import numpy as np
import pytest

from mols.errors import MolsError
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from mols.problems.flowshop.state import add_max_row
from tests.conftest import random_instance

# (makespan, total tardiness, tardy jobs) of the identity and of EDD order, from SOURCE.md.
SANITY = {
    "020_05_01": ((1448, 5290, 13), (1539, 5774, 19)),
    "020_10_02": ((2104, 11543, 15), (1979, 7036, 19)),
    "050_20_01": ((5094, 52171, 33), (4742, 30101, 48)),
    "100_10_01": ((6983, 134760, 54), (6825, 59431, 99)),
    "200_10_01": ((12193, 459310, 127), (12381, 201259, 199)),
    "200_20_01": ((13576, 579257, 136), (13624, 330693, 197)),
}


@pytest.mark.parametrize("name", sorted(SANITY))
def test_reference_matches_documented_values(name):
    pb = load_problem("flowshop", name)
    edd = np.argsort(pb.instance.due, kind="stable")
    F = pb.evaluate(np.stack([np.arange(pb.n), edd]))
    assert [tuple(row) for row in F] == list(SANITY[name])


def brute_force(p, due, perm):
    """Start times by the definition: a job starts on a machine when both it and the machine are free."""
    m, n = p.shape
    C = np.zeros((n, m), dtype=np.int64)
    for k, job in enumerate(perm):
        for i in range(m):
            ready = max(C[k - 1, i] if k else 0, C[k, i - 1] if i else 0)
            C[k, i] = ready + p[i, job]
    late = C[:, -1] - due[perm]
    return C[-1, -1], np.maximum(late, 0).sum(), (late > 0).sum()


@pytest.mark.parametrize("n, m", [(1, 1), (2, 1), (1, 4), (5, 3), (12, 7)])
def test_reference_matches_brute_force(rng, n, m):
    pb = Flowshop(random_instance(rng, n, m))
    X = np.stack([rng.permutation(n) for _ in range(5)])
    expected = [brute_force(pb.instance.p, pb.instance.due, x) for x in X]
    np.testing.assert_array_equal(pb.evaluate(X), expected)
    np.testing.assert_array_equal(pb.evaluate(X[0]), expected[0])


@pytest.mark.parametrize("n, m", [(2, 1), (6, 1), (9, 5), (30, 20)])
def test_state_tables_rebuild_the_schedule(rng, n, m):
    """fill_state's prefix totals and offset rows reproduce the reference objectives."""
    pb = Flowshop(random_instance(rng, n, m))
    x = rng.permutation(n).astype(np.int32)
    state = tuple(np.empty(shape, dtype) for shape, dtype in pb.kernels.state_layout())
    pb.kernels.fill_state(x, state)
    _, eext, pref_t, pref_u, dpi = state
    makespan, tardiness, n_tardy = pb.evaluate(x)
    assert (pref_t[n], pref_u[n]) == (tardiness, n_tardy)
    assert eext[n, -1] + pb.kernels.q[x[-1], -1] == makespan
    for r in range(n - 1):  # the tabulated D rows step the offsets from one position to the next
        e = eext[r + 1].copy()
        add_max_row(e, dpi[r], e)
        np.testing.assert_array_equal(e, eext[r + 2])


@pytest.mark.parametrize("n, m, p_max", [(1, 1, 99), (2, 1, 99), (9, 5, 99), (40, 6, 10**8)])
def test_evaluate_one_equals_the_reference(rng, n, m, p_max):
    pb = Flowshop(random_instance(rng, n, m, p_max=p_max))
    for _ in range(5):
        x = rng.permutation(n).astype(np.int32)
        f = pb.evaluate_one(x)
        assert f.dtype == pb.dtype
        np.testing.assert_array_equal(f, pb.evaluate(x))


def test_objective_dtype_widens_when_int32_could_overflow(rng):
    assert Flowshop(random_instance(rng, 50, 5)).dtype == np.int32
    assert Flowshop(random_instance(rng, 50, 5, p_max=10**8)).dtype == np.int64


def test_unknown_problem():
    with pytest.raises(MolsError, match="unknown problem"):
        load_problem("vrp", "x")
