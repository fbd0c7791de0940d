"""QAP and mQAP: readers, the published solutions and Pareto sets, and the swap deltas of both CPU
kernels (O(n) per move, and Taillard's update) against full re-evaluation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mols.backends import BackendSpec, prepare
from mols.errors import InstanceError, MolsError
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.problems.qap.instance import (
    QapInstance,
    read_mqap,
    read_pareto_set,
    read_qaplib,
    read_solution,
    resolve_qap,
)
from mols.problems.qap.model import Qap

SWAP = get_neighborhood("swap")
BKS = pd.read_csv(resolve_qap("tai12a", "qap").with_name("qap_bks.csv")).set_index("name")
# How each .sln file writes its permutation (instances/qap/SOURCE.md): 1-based unless listed.
ZERO_BASED = {"tai40a"}
INVERSE = {"tai60a", "tai80a"}  # the stored vector is p^-1


def sln_permutation(name: str) -> tuple[int, np.ndarray]:
    _, cost, p = read_solution(resolve_qap(name, "qap").with_suffix(".sln"))
    p = p if name in ZERO_BASED else p - 1
    return cost, np.argsort(p) if name in INVERSE else p


@pytest.mark.parametrize("name", list(BKS.index))
def test_full_evaluation_reproduces_the_sln_costs(name):
    cost, p = sln_permutation(name)
    problem = load_problem("qap", name)
    assert cost == BKS.loc[name, "sln_file_cost"] >= BKS.loc[name, "best_known"]
    assert problem.evaluate(p)[0] == cost
    assert problem.evaluate_one(p)[0] == cost
    assert np.iinfo(problem.dtype).max >= cost


def test_sln_quirks_are_real():
    """The documented conventions are needed: the plain 1-based reading gives other costs."""
    for name in ZERO_BASED | INVERSE:
        _, cost, p = read_solution(resolve_qap(name, "qap").with_suffix(".sln"))
        plain = p - 1 if p.min() == 1 else p
        assert load_problem("qap", name).evaluate(plain)[0] != cost or name in ZERO_BASED
    assert read_solution(resolve_qap("tai40a", "qap").with_suffix(".sln"))[2].min() == 0
    assert BKS.loc["tai100a", "sln_file_cost"] > BKS.loc["tai100a", "best_known"]  # an older solution


@pytest.mark.parametrize("name", ["KC10-2fl-1uni", "KC10-2fl-3uni", "KC10-2fl-1rl", "KC10-2fl-5rl"])
def test_pareto_sets_reproduce_their_objectives(name):
    problem = load_problem("mqap", name)
    X, F = read_pareto_set(resolve_qap(name, "mqap").with_suffix(".PO"), problem.n, problem.n_obj)
    np.testing.assert_array_equal(problem.evaluate(X), F)


def test_mqap_shapes_and_bundled_names():
    problem = load_problem("mqap", "KC30-3fl-1uni")
    assert (problem.n, problem.objectives, problem.name) == (30, ("cost_1", "cost_2", "cost_3"), "mqap")
    assert load_problem("qap", "tai150b").dtype == np.int64 and not load_problem("qap", "tai150b").symmetric
    assert load_problem("qap", "tai256c").dtype == np.int32  # costs ~44.7M; sums wrap harmlessly on the GPU


def random_qap(rng, n: int, k: int, symmetric: bool) -> Qap:
    a = rng.integers(-5, 20, size=(k, n, n))
    b = rng.integers(0, 30, size=(n, n))
    if symmetric:
        a, b = a + a.transpose(0, 2, 1), b + b.T
    return Qap(QapInstance(f"random{n}", a, b))


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("k", [1, 3])
def test_deltas_equal_full_evaluation_over_a_sequence_of_moves(rng, symmetric, k):
    """Both kernels, every move, along a walk of swaps (Taillard's update and the O(kn) state
    update) with restarts (rebuilds)."""
    problem = random_qap(rng, 9, k, symmetric)
    assert problem.symmetric == symmetric
    incremental, plain = prepare(problem, SWAP, "cpu"), prepare(problem, SWAP, BackendSpec("cpu", incremental=False))
    x = problem.random_solution(rng)
    for step in range(25):
        expected = problem.evaluate(SWAP.apply_many(x, np.arange(SWAP.size(problem.n))))
        np.testing.assert_array_equal(plain.evaluate(x), expected)
        np.testing.assert_array_equal(incremental.evaluate(x), expected)
        np.testing.assert_array_equal(problem.evaluate_one(x), problem.evaluate(x))
        x = problem.random_solution(rng) if step % 8 == 7 else SWAP.apply(x, int(rng.integers(SWAP.size(9))))


def test_state_update_equals_rebuild(rng):
    problem = random_qap(rng, 11, 2, symmetric=False)
    layout = problem.kernels.state_layout()
    walked = tuple(np.empty(shape, dtype) for shape, dtype in layout)
    x = problem.random_solution(rng)
    problem.kernels.fill_state(x, walked)
    for _ in range(30):
        x = SWAP.apply(x, int(rng.integers(SWAP.size(11))))
        problem.kernels.fill_state(x, walked)
        rebuilt = tuple(np.empty(shape, dtype) for shape, dtype in layout)
        problem.kernels.fill_state(x, rebuilt)
        for got, want in zip(walked, rebuilt):
            np.testing.assert_array_equal(got, want)


def test_only_the_swap_neighborhood():
    with pytest.raises(MolsError, match="swap"):
        prepare(load_problem("qap", "tai12a"), get_neighborhood("insertion"), "cpu")


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, message", [
    ("3\n0 1 2\n1 0 3\n2 3 0\n\n0 1 2\n1 0 3\n", "expected 2 matrices of 3 x 3 = 18 integers"),  # short
    ("2\n0 1 2\n1 0 3\n\n0 1 2\n1 0 3\n", "found 12: the first extra one is on this line"),  # rows of 3: n = 2
    ("2\n0 1\n1 x\n0 1\n1 0\n", "expected integers, found 'x'"),
    ("1\n0\n0\n", "at least 2"),
    ("", "empty file"),
])
def test_qaplib_reader_errors_name_the_file(tmp_path, text, message):
    path = write(tmp_path, "bad.dat", text)
    with pytest.raises(InstanceError, match=message) as err:
        read_qaplib(path)
    assert str(path) in str(err.value)


MQAP_HEADER = "facilities: 2 objectives: 2 max_distances: 9 max flows: 9 correlation: 0.0 seed 1\n"


@pytest.mark.parametrize("text, message", [
    (MQAP_HEADER + "0 1\n1 0\n\n0 2\n2 0\n", "3 matrices of 2 x 2 = 12 integers .* found 8"),  # one flow missing
    (MQAP_HEADER.replace("objectives: 2", "objectives: 1") + "0 1\n1 0\n\n0 2\n2 0\n\n0 3\n3 0\n",
     "after the header.s .facilities: 2. and .objectives: 1. .*found 12: the first extra one"),
    ("facilities = 2 max flows 9\n0 1\n1 0\n0 1\n1 0\n", "it has no .objectives."),
])
def test_mqap_header_disagreeing_with_data_names_the_file(tmp_path, text, message):
    path = write(tmp_path, "bad-mqap.dat", text)
    with pytest.raises(InstanceError, match=message) as err:
        read_mqap(path)
    assert str(path) in str(err.value)


def test_mqap_reader_reads_the_rl_header(tmp_path):
    text = ("facilities = 2 objectives = 1 max_distances = 9 max flows = 9 overlap = 1.00 seed = 3\n"
            "0 4\n4 0\n\n0 2\n3 0\n")
    instance = read_mqap(write(tmp_path, "ok.dat", text))
    np.testing.assert_array_equal(instance.b, [[0, 4], [4, 0]])
    np.testing.assert_array_equal(instance.a, [[[0, 2], [3, 0]]])


def test_unknown_instance_names_it():
    with pytest.raises(InstanceError, match="no-such-qap"):
        load_problem("qap", "no-such-qap")
