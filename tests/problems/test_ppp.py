"""The PPP: generator (planted solutions, f = 0 exactly on solutions), the file format and its strict
reader, names, and the Numba kernels of Hamming 1, 2, 3 against the reference evaluation (random, planted
and near-planted solutions, an empty window, chunks); tabu search repeats and solves a small instance."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mols
from mols.backends import BackendSpec, prepare
from mols.errors import InstanceError, MolsError
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.problems.io import bundled_instances_dir
from mols.problems.ppp import Ppp, PppInstance, generate, instance_table, load_ppp, read_ppp, write_ppp
from mols.problems.ppp.cpu import G1, G2
from mols.problems.ppp.kernels import MAX_GPU_N

HAMMING = [get_neighborhood(f"hamming{k}") for k in (1, 2, 3)]


def planted_bits(instance: PppInstance) -> np.ndarray:
    return ((instance.v + 1) // 2).astype(np.int8)


def test_the_planted_solution_costs_0_and_random_ones_do_not():
    problem = Ppp(generate(21, 21, 3))
    x = planted_bits(problem.instance)
    assert problem.evaluate(x)[0] == 0 and problem.is_solution(x)
    X = np.array([problem.random_solution(np.random.default_rng(seed)) for seed in range(20)])
    assert (problem.evaluate(X)[:, 0] > 0).all() and not any(problem.is_solution(x) for x in X)
    assert problem.evaluate(1 - x)[0] > 0  # -V: every (A V)_i negative
    for y in (x, 1 - x, *X[:3]):
        np.testing.assert_array_equal(problem.evaluate_one(y), problem.evaluate(y))


def test_the_cost_is_0_exactly_on_the_solutions_by_enumeration():
    problem = Ppp(generate(9, 9, 2))
    X = np.array(list(itertools.product((0, 1), repeat=9)), dtype=np.int8)
    zero = problem.evaluate(X)[:, 0] == 0
    assert zero.any() and zero.tolist() == [problem.is_solution(x) for x in X]
    assert zero[int("".join(map(str, planted_bits(problem.instance))), 2)]


def test_generated_instances_are_epsilon_matrices_with_their_values():
    inst = generate(31, 17, 8)
    assert inst.a.dtype == np.int8 and set(np.unique(inst.a)) == {-1, 1} and inst.name == "31-17-s8"
    assert np.array_equal(np.sort(inst.a.astype(int) @ inst.v), inst.s)
    assert inst.s.min() >= 1 and (inst.s % 2 == 1).all()  # n odd: values odd, in 1..n
    assert inst.histogram.sum() == 31 and inst.histogram[0] == 0
    assert np.array_equal(generate(31, 17, 8).a, inst.a) and not np.array_equal(generate(31, 17, 9).a, inst.a)


def test_names_generate_and_paths_read(tmp_path):
    assert load_ppp("15-17").instance.seed == 1 and load_ppp("15-17").instance_name == "15-17"
    assert np.array_equal(load_ppp("15-17-s1").instance.a, load_ppp("15-17").instance.a)
    assert load_problem("ppp", "15-17-s4").instance_name == "15-17-s4"
    path = write_ppp(generate(5, 7, 2), tmp_path / "mine.ppp")
    assert load_ppp(str(path)).instance_name == "mine"
    with pytest.raises(InstanceError, match="no such instance file"):
        load_ppp(str(tmp_path / "missing.ppp"))
    with pytest.raises(MolsError, match="m >= 1"):
        generate(0, 5)


def test_the_bundled_example_is_the_generated_73_73():
    """Guards the names against a change in NumPy's random streams."""
    file, made = read_ppp(bundled_instances_dir() / "ppp" / "73-73.ppp"), generate(73, 73, 1)
    for attr in ("a", "s", "v"):
        assert np.array_equal(getattr(file, attr), getattr(made, attr))
    assert [row[0] for row in instance_table()[2]][::5] == ["73-73", "301-317", "801-817", "1301-1317"]


@pytest.mark.parametrize("m, n, with_v", [(15, 17, True), (30, 20, True), (4, 3, False)])
def test_files_round_trip(tmp_path, m, n, with_v):
    made = generate(m, n, 5)
    inst = made if with_v else PppInstance("x", made.a, made.s)
    back = read_ppp(write_ppp(inst, tmp_path / "inst.ppp"))
    assert np.array_equal(back.a, inst.a) and np.array_equal(back.s, inst.s)
    assert (back.v is None) if not with_v else np.array_equal(back.v, inst.v)
    assert write_ppp(back, tmp_path / "again.ppp").read_text().split("\n")[3:] == \
        (tmp_path / "inst.ppp").read_text().split("\n")[3:]  # the same text, but for the seed's comment


def test_the_reader_takes_comments_and_s_in_any_order(tmp_path):
    path = tmp_path / "c.ppp"
    path.write_text("# a\n2 3\n# rows\n+++\n\n+-+\n1 3\n# the solution\n+++\n")
    inst = read_ppp(path)
    assert inst.s.tolist() == [1, 3] and inst.v.tolist() == [1, 1, 1]


GOOD = ["2 3", "+++", "+-+", "3 1", "+++"]  # S = {3, 1}, V = (+1, +1, +1)


def malformed(line: int, text: str) -> list[str]:
    return GOOD[:line - 1] + ([text] if text is not None else []) + GOOD[line:]


@pytest.mark.parametrize("lines, line, message", [
    ([], None, "empty file"),
    (["# only a comment"], None, "empty file"),
    (malformed(1, "2"), 1, "expected 'm n'"),
    (malformed(1, "0 3"), 1, "expected 'm n'"),
    (malformed(1, "2 x"), 1, "expected 'm n'"),
    (malformed(2, "++x"), 2, "row 1 of A: expected 3 signs + or - with no spaces; 'x' is not a sign"),
    (malformed(3, "+-"), 3, "row 2 of A: expected 3 signs + or - with no spaces; found 2"),
    (malformed(2, "+ ++"), 2, "' ' is not a sign"),
    (["2 3", "+++", "+-+"], 3, "the file ends"),
    (malformed(4, "3"), 4, "S: expected m = 2 integers"),
    (malformed(4, "3 5"), 4, "'5' is not a possible value"),
    (malformed(4, "3 -1"), 4, "'-1' is not a possible value"),
    (malformed(4, "3 2"), 4, "'2' is not a possible value"),  # n = 3 is odd: every (A V)_i is odd
    (malformed(5, "++"), 5, "the solution V: expected 3 signs"),
    (malformed(5, "+--"), 5, "does not solve the instance"),
    (GOOD + ["+++"], 6, "unexpected line"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_the_reader_names_file_and_line_of_malformed_input(tmp_path, lines, line, message):
    path = tmp_path / "bad.ppp"
    path.write_text("".join(f"{text}\n" for text in lines))
    with pytest.raises(InstanceError) as err:
        read_ppp(path)
    assert err.value.path == path and err.value.line == line and message in str(err.value)


def test_the_gpu_refuses_what_its_shared_memory_cannot_hold():
    assert Ppp(generate(3, MAX_GPU_N, 1)).kernels.cuda_defines()["N"] == MAX_GPU_N
    with pytest.raises(MolsError, match="n <= 2900"):
        Ppp(generate(3, MAX_GPU_N + 1, 1)).kernels.cuda_defines()


def test_only_hamming_neighborhoods():
    with pytest.raises(MolsError, match="hamming1 or hamming2 or hamming3"):
        prepare(load_ppp("5-5"), get_neighborhood("swap"), "cpu")


def kernel_agrees(problem: Ppp, x: np.ndarray, spec="cpu") -> None:
    for nbh in HAMMING:
        F = prepare(problem, nbh, spec).evaluate(x)
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))


@pytest.mark.parametrize("name", ["15-17", "21-21"])
def test_the_kernels_equal_the_reference_on_random_solutions(name):
    problem, rng = load_ppp(name), np.random.default_rng(7)
    for _ in range(3):
        kernel_agrees(problem, problem.random_solution(rng))


@pytest.mark.parametrize("flips", [0, 1, 2, 5])
def test_the_kernels_equal_the_reference_at_and_near_the_planted_solution(flips):
    """There the window (lo, hi) is narrowest: the values all lie near S."""
    problem = load_ppp("21-21")
    x = planted_bits(problem.instance)
    x[np.random.default_rng(flips).choice(21, flips, replace=False)] ^= 1
    kernel_agrees(problem, x)


def test_the_kernels_evaluate_by_chunks():
    problem = load_ppp("15-17")
    kernel_agrees(problem, problem.random_solution(np.random.default_rng(1)), BackendSpec("cpu", chunk_rows=7))


def test_an_empty_window():
    """A V = -9 everywhere: every neighbor's values stay below 1, so no histogram bin is in the window."""
    problem = Ppp(PppInstance("ones", np.ones((4, 9)), [9, 9, 9, 9], np.ones(9)))
    state = [np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout()]
    problem.kernels.fill_state(np.zeros(9, dtype=np.int8), state)
    assert state[2][1] < state[2][0] and state[2][2] == 4
    kernel_agrees(problem, np.zeros(9, dtype=np.int8))
    kernel_agrees(problem, np.ones(9, dtype=np.int8))


def fresh_state(problem: Ppp, x: np.ndarray) -> list[np.ndarray]:
    state = [np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout()]
    problem.kernels.fill_state(x, state)
    return state


def test_the_state_follows_a_walk_exactly():
    """fill_state updates Y from the previous call's by the changed columns (up to n / 4 of them): the
    same arrays as a fresh fill, step after step, and after a jump."""
    problem, rng = load_ppp("45-47"), np.random.default_rng(3)
    x = problem.random_solution(rng)
    state = fresh_state(problem, x)
    for flips in (1, 2, 3, 0, 11, 12, 40, 1):
        x = x.copy()
        x[rng.choice(problem.n, flips, replace=False)] ^= 1
        problem.kernels.fill_state(x, state)
        for got, want in zip(state, fresh_state(problem, x)):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_sorted_state_of_hamming_2(seed):
    """What ppp.cu's Hamming 2 reads: the rows sorted by Y, where each value of the grid v0 + 2 t ends, and
    the residual histogram, which with the sign term gives the solution's own cost."""
    problem, rng = load_ppp("33-31"), np.random.default_rng(seed)
    x = problem.random_solution(rng) if seed else planted_bits(problem.instance)
    _, Y, _, order, levels, ends, residual, NEG = fresh_state(problem, x)
    T, v0, outside2 = levels
    assert sorted(order) == list(range(problem.instance.m)) and np.all(np.diff(Y[order]) >= 0)
    assert v0 == Y.min() - 4 and v0 + 2 * (T - 1) == Y.max() + 4
    np.testing.assert_array_equal(ends, [(Y <= v0 + 2 * t).sum() for t in range(len(ends))])
    own_cost = 2 * G1 * NEG[0] + G2 * (np.abs(residual).sum() + outside2)
    assert own_cost == problem.evaluate(x)[0]


def test_tabu_runs_repeat():
    runs = [mols.solve(load_ppp("41-41"), neighborhood="hamming1", algorithm="tabu", iterations=60, seed=3,
                       backend="cpu") for _ in range(2)]
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)


def test_tabu_solves_a_small_instance_and_stops_there():
    """Measured on 25-25 with Hamming 2 (budget 1000): seeds 0, 1, 4, 5, 6, 8 reach cost 0 within 10
    iterations, seeds 2, 3, 7, 9 stay at cost 10. Seed 0 reaches it at iteration 6."""
    problem = load_ppp("25-25")
    result = mols.solve(problem, neighborhood="hamming2", algorithm="tabu", iterations=200, seed=0, backend="cpu")
    best = result.archive.X[np.argmin(result.archive.F[:, 0])]
    assert result.status == "completed" and problem.is_solution(best)
    assert result.reached is not None and result.reached.iteration == result.iterations < 200
