"""Graph coloring: the bundled DIMACS graphs against their published sizes, the reader's errors, the
instance names, the reference evaluation by brute force, the kernel against it, and a tabu search
that finds a proper coloring."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mols
from mols.errors import InstanceError, MolsError
from mols.problems import load_problem
from mols.problems.coloring import Coloring, ColoringInstance, Graph, instance_table, load_coloring, read_col
from mols.problems.io import bundled_instances_dir

# Published: vertices, distinct edges, 'e' lines (the queen graphs list each edge twice), chromatic number.
PUBLISHED = {"myciel3": (11, 20, 20, 4), "myciel4": (23, 71, 71, 5), "myciel5": (47, 236, 236, 6),
             "queen5_5": (25, 160, 320, 5), "queen6_6": (36, 290, 580, 7)}


def write(tmp_path, text: str, name: str = "bad.col"):
    path = tmp_path / name
    path.write_text(text)
    return path


def tiny(k: int) -> Coloring:
    """A triangle 0-1-2 with a pendant vertex 3 on 2: P(k) = k (k - 1) (k - 2) (k - 1) proper colorings."""
    return Coloring(ColoringInstance(Graph("tiny", 4, [(0, 1), (1, 2), (0, 2), (2, 3)], 4), k))


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_bundled_graphs_have_their_published_sizes(name):
    graph = read_col(bundled_instances_dir() / "coloring" / f"{name}.col")
    assert (graph.n, graph.m, graph.lines) == PUBLISHED[name][:3]
    problem = load_coloring(name)  # a bare name colors with the chromatic number
    assert (problem.k, problem.instance_name) == (PUBLISHED[name][3], f"{name}-k{PUBLISHED[name][3]}")


def test_the_instance_table_lists_every_bundled_graph():
    rows = instance_table()[2]
    assert {row[0]: tuple(row[1:]) for row in rows} == PUBLISHED


def test_duplicate_and_reversed_edges_are_one_edge(tmp_path):
    graph = read_col(write(tmp_path, "c a comment\np edge 3 4\ne 1 2\ne 2 1\ne 1 2\ne 3 2\n"))
    assert (graph.n, graph.m, graph.lines) == (3, 2, 4)
    assert graph.edges.tolist() == [[0, 1], [1, 2]]
    offsets, neighbors = graph.adjacency()
    assert [sorted(neighbors[offsets[v]:offsets[v + 1]].tolist()) for v in range(3)] == [[1], [0, 2], [1]]


@pytest.mark.parametrize("text, message, line", [
    ("c only comments\n", "no 'p edge N M' line", None),
    ("e 1 2\np edge 2 1\n", "'e' line before", 1),
    ("p edge 3\n", "expected 'p edge N M'", 1),
    ("p graph 3 1\n", "expected 'p edge N M'", 1),
    ("p edge 0 0\n", "at least one vertex", 1),
    ("p edge 3 1\np edge 3 1\ne 1 2\n", "second 'p' line", 2),
    ("p edge 3 1\ne 1 4\n", "vertex 4 is out of range 1..3", 2),
    ("p edge 3 1\ne 0 1\n", "vertex 0 is out of range", 2),
    ("p edge 3 1\ne 2 2\n", "self-loop on vertex 2", 2),
    ("p edge 3 1\ne 1 x\n", "expected a whole number", 2),
    ("p edge 3 1\ne 1 2 3\n", "expected 'e u v'", 2),
    ("p edge 3 1\nn 1 5\n", "expected a 'c', 'p' or 'e' line", 2),
    ("c\np edge 3 2\ne 1 2\n", "announces M = 2 'e' lines, found 1", 2),
])
def test_reader_errors_name_the_file_and_line(tmp_path, text, message, line):
    path = write(tmp_path, text)
    with pytest.raises(InstanceError, match=message) as err:
        read_col(path)
    assert err.value.path == path and err.value.line == line


def test_instance_names(tmp_path):
    assert load_problem("coloring", "myciel5:4").k == 4  # a bundled name with K
    path = write(tmp_path, "p edge 3 2\ne 1 2\ne 2 3\n", "path3.col")
    problem = load_coloring(f"{path}:2")
    assert (problem.n, problem.k, problem.instance_name) == (3, 2, "path3-k2")
    with pytest.raises(MolsError, match=":K"):
        load_coloring(str(path))  # a file of ours: no published chromatic number to default to
    for bad, message in [("myciel5:1", r"in 2\.\.47"), ("myciel5:x", "whole number"), ("myciel5:48", r"in 2\.\.47")]:
        with pytest.raises(MolsError, match=message):
            load_coloring(bad)
    with pytest.raises(InstanceError, match="no-such-graph"):
        load_coloring("no-such-graph:3")


@pytest.mark.parametrize("k", [2, 3, 4])
def test_the_reference_evaluation_by_brute_force(k):
    problem = tiny(k)
    X = np.array(list(itertools.product(range(k), repeat=4)), dtype=np.int32)
    F = problem.evaluate(X)[:, 0]
    expected = [sum(int(x[u] == x[v]) for u, v in [(0, 1), (1, 2), (0, 2), (2, 3)]) for x in X]
    np.testing.assert_array_equal(F, expected)
    assert (F == 0).sum() == k * (k - 1) * (k - 2) * (k - 1)  # the graph's chromatic polynomial


def test_myciel3_has_no_proper_3_coloring():
    """Its published chromatic number is 4: among all 3^11 colorings, every one has a conflict."""
    problem = load_coloring("myciel3:3")
    X = np.array(list(itertools.product(range(3), repeat=problem.n)), dtype=np.int32)
    assert problem.evaluate(X).min() == 1


@pytest.mark.parametrize("instance", ["queen5_5", "myciel4:3", "queen6_6:2", "myciel5"])
def test_the_kernel_equals_the_reference_evaluation(rng, instance):
    """Random solutions, then a walk of moves, through the same state buffers."""
    problem = load_coloring(instance)
    nbh = problem.neighborhood("change")
    evaluator = mols.prepare(problem, nbh, "cpu")
    x = problem.random_solution(rng)
    for step in range(6):
        F = evaluator.evaluate(x)
        assert F.shape == ((problem.k - 1) * problem.n, 1) and F.dtype == problem.dtype
        np.testing.assert_array_equal(F, problem.evaluate(nbh.apply_many(x, np.arange(len(F)))))
        x = problem.random_solution(rng) if step == 2 else nbh.apply(x, int(rng.integers(len(F))))


def test_the_state_holds_the_conflicts():
    problem = tiny(3)
    x = np.array([0, 0, 0, 1], dtype=np.int32)
    state = tuple(np.full(shape, -1, dtype) for shape, dtype in problem.kernels.state_layout())
    problem.kernels.fill_state(x, state)
    np.testing.assert_array_equal(state[0], x)
    np.testing.assert_array_equal(state[1], [[2, 0, 0], [2, 0, 0], [2, 1, 0], [1, 0, 0]])  # neighbors by color
    assert state[2][0] == problem.evaluate(x)[0] == 3


def test_only_its_own_change_neighborhood():
    problem = load_coloring("queen5_5")
    assert problem.neighborhood("change").n_neighbors(problem.n) == 4 * 25
    with pytest.raises(MolsError, match="does not support the swap neighborhood"):
        mols.prepare(problem, problem.neighborhood("swap"), "cpu")
    with pytest.raises(MolsError, match="among 3 values"):
        mols.prepare(problem, load_coloring("queen5_5:3").neighborhood("change"), "cpu")


def test_tabu_finds_a_proper_coloring_and_stops_there():
    """myciel4 with its chromatic number of colors: every seed tried (0..7) needs at most 10 iterations."""
    problem = load_coloring("myciel4")
    result = mols.solve(problem, neighborhood="change", algorithm="tabu", iterations=200, seed=1, backend="cpu")
    best = result.archive.X[np.argmin(result.archive.F[:, 0])]
    u, v = problem.instance.graph.edges.T
    assert (best[u] != best[v]).all() and set(best.tolist()) <= set(range(5))  # a proper 5-coloring
    assert result.reached is not None and result.reached.iteration == result.iterations < 200
