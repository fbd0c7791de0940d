"""TSPLIB reader: optimal tours give the published lengths; bad files give errors naming file and line."""

from __future__ import annotations

import numpy as np
import pytest

from mols.errors import InstanceError
from mols.problems import load_problem
from mols.problems.tsp import instance as tsplib
from mols.problems.tsp.moves import distance

GOOD = """NAME: tiny
TYPE : TSP
COMMENT : four cities
DIMENSION : 4
EDGE_WEIGHT_TYPE : {kind}
NODE_COORD_SECTION
 1 0 0
 2 3.0e+00 4
3 3 0
4 0.0 4.0
EOF
"""


def write(tmp_path, text, name="bad.tsp"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("name, length", [("kroA100", 21282), ("eil101", 629), ("pcb442", 50778)])
def test_optimal_tours_have_the_published_lengths(name, length):
    problem = load_problem("tsp", name)
    tour = tsplib.read_tour(tsplib.resolve_tsp(name).with_suffix(".opt.tour"), problem.n)
    assert problem.evaluate(tour)[0] == length == tsplib.optimal_lengths()[name]
    assert problem.evaluate_one(tour)[0] == length


def test_reads_a_small_file(tmp_path):
    inst = tsplib.read_tsplib(write(tmp_path, GOOD.format(kind="EUC_2D")))
    assert inst.name == "tiny" and inst.n == 4 and inst.edge_weight_type == "EUC_2D"
    np.testing.assert_array_equal(inst.xy, [[0, 0], [3, 4], [3, 0], [0, 4]])


def test_distance_rules():
    assert distance(0.0, 0.0, 3.0, 4.0, False) == 5
    assert distance(0.0, 0.0, 1.0, 1.0, False) == 1  # nint(1.414)
    assert distance(0.0, 0.0, 1.0, 2.0, False) == 2  # nint(2.236)
    # ATT: r = sqrt(25 / 10) = 1.58, nint 2 (not below r); r = sqrt(100 / 10) = 3.16, nint 3 < r -> 4
    assert distance(0.0, 0.0, 3.0, 4.0, True) == 2
    assert distance(0.0, 0.0, 6.0, 8.0, True) == 4


@pytest.mark.parametrize("text, message, line", [
    (GOOD.format(kind="GEO"), "EDGE_WEIGHT_TYPE 'GEO' is not supported", 5),
    (GOOD.format(kind="EUC_2D").replace("DIMENSION : 4", "DIMENSION : 5"), "4 coordinates, but DIMENSION is 5", 4),
    (GOOD.format(kind="EUC_2D").replace("DIMENSION : 4", "DIMENSION : 3"), "more coordinates than DIMENSION 3", 10),
    (GOOD.format(kind="EUC_2D").replace("3 3 0", "3 3 zero"), "expected 'id x y'", 9),
    (GOOD.format(kind="EUC_2D").replace("3 3 0", "5 3 0"), "with id 3", 9),
    (GOOD.format(kind="EUC_2D").replace("DIMENSION : 4", "DIMENSION : four"), "DIMENSION must be a whole number in 3", 4),
    (GOOD.format(kind="EUC_2D").replace("TYPE : TSP", "TYPE : ATSP"), "TYPE 'ATSP'", 2),
    (GOOD.format(kind="EUC_2D").replace("COMMENT : four cities", "a comment"), "expected 'KEY : value'", 3),
    (GOOD.format(kind="EUC_2D").replace("NODE_COORD_SECTION", "EDGE_WEIGHT_SECTION"), "expected 'KEY : value'", 6),
])
def test_bad_files_name_the_file_and_line(tmp_path, text, message, line):
    path = write(tmp_path, text)
    with pytest.raises(InstanceError, match=message) as err:
        tsplib.read_tsplib(path)
    assert str(path) in str(err.value)
    assert err.value.line == line


def test_missing_edge_weight_type_is_an_error(tmp_path):
    path = write(tmp_path, GOOD.format(kind="EUC_2D").replace("EDGE_WEIGHT_TYPE : EUC_2D\n", ""))
    with pytest.raises(InstanceError, match="no EDGE_WEIGHT_TYPE; choose EUC_2D or ATT") as err:
        tsplib.read_tsplib(path)
    assert str(path) in str(err.value)


def test_bad_tour_names_the_file(tmp_path):
    path = write(tmp_path, "NAME : t\nTYPE : TOUR\nTOUR_SECTION\n1\n2\n2\n-1\nEOF\n", "bad.tour")
    with pytest.raises(InstanceError, match="the tour is not a permutation") as err:
        tsplib.read_tour(path, 3)
    assert str(path) in str(err.value)


def test_unknown_instance_name():
    with pytest.raises(InstanceError, match="no such instance"):
        tsplib.load_tsp("kroZ100")


def test_random_instances_are_seeded_and_round_trip(tmp_path):
    a, b = tsplib.load_tsp("random:50:3"), tsplib.random_instance(50, 3)
    np.testing.assert_array_equal(a.xy, b.xy)
    assert not np.array_equal(a.xy, tsplib.random_instance(50, 4).xy)
    path = tmp_path / "r.tsp"
    tsplib.write_tsplib(a, path)
    np.testing.assert_array_equal(tsplib.read_tsplib(path).xy, a.xy)


def test_bi_objective_pairs():
    first, second = tsplib.load_pair("kroAB100")
    assert (first.name, second.name) == ("kroA100", "kroB100")
    problem = load_problem("bitsp", "kroAB100")
    tour = tsplib.read_tour(tsplib.resolve_tsp("kroA100").with_suffix(".opt.tour"), 100)
    f = problem.evaluate(tour)
    assert f[0] == 21282 and f[1] > 22141  # kroB100's optimum is 22141
    with pytest.raises(InstanceError, match="have 100 and 150 cities"):
        tsplib.load_pair("kroA100,kroB150")
