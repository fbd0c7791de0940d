"""What the readers' errors name (issue 37): the user's path, never a name read from inside the file; a DIMACS
header's sizes checked against memory before any array is made; numbers of any length refused cleanly."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import mols.memory
from mols.errors import InstanceError, MolsError
from mols.problems import load_problem
from mols.problems.coloring import read_col
from mols.problems.flowshop.instance import FlowshopInstance
from mols.problems.flowshop.model import Flowshop
from mols.problems.io import find_bundled, integer, is_file, read_text, whole_number
from mols.problems.qap import read_mqap

LONG_NAME = "x" * 5000  # longer than any file name the system takes (ENAMETOOLONG)


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_huge_dimacs_header_is_refused_before_any_array(tmp_path, monkeypatch):
    """`p edge 2000000000 1` took 36 s and 15.8 GB before its refusal: now its line, at once."""
    monkeypatch.setattr(mols.memory, "available_bytes", lambda: 4 * mols.memory.GIB)
    path = write(tmp_path, "huge.col", "c a one-edge graph\np edge 2000000000 1\ne 1 2\n")
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(InstanceError) as err:
        read_col(path)
    seconds, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert (err.value.path, err.value.line) == (path, 2)
    assert str(err.value) == (f"{path}:2: the 'p' line's N = 2000000000 vertices and M = 1 'e' lines would take "
                              "29.8 GiB of memory, more than the 4.0 GiB available; choose a smaller instance or "
                              "neighborhood")
    assert seconds < 1 and peak < 1 << 20


def test_a_dimacs_graph_that_fits_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(mols.memory, "available_bytes", lambda: 4 * mols.memory.GIB)
    graph = read_col(write(tmp_path, "wide.col", "p edge 100000000 1\ne 1 2\n"))  # 1.5 GiB: within 4
    assert (graph.n, graph.m) == (100_000_000, 1)


def test_tsp_errors_name_the_path_not_the_name_field(tmp_path):
    path = write(tmp_path, "far.tsp", "NAME : other-name\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                 "NODE_COORD_SECTION\n1 0 0\n2 1e12 0\n3 5 5\nEOF\n")
    with pytest.raises(MolsError) as err:
        load_problem("tsp", str(path))
    assert str(err.value).startswith(f"{path}: cities up to 1e+12 apart") and "other-name" not in str(err.value)
    with pytest.raises(MolsError, match=f"^{path}: cities"):  # the part of a pair that is too wide
        load_problem("bitsp", f"{path},{path}")


@pytest.mark.parametrize("problem, text", [
    ("qap", "3\n" + "1073741823 1073741823 1073741823\n" * 6),
    ("q3ap", "2\n" + "1073741823 1073741823\n" * 6),
])
def test_values_past_int64_name_the_path(tmp_path, problem, text):
    path = write(tmp_path, "bigvals.dat", text)
    with pytest.raises(MolsError, match=f"^{path}: objective values could reach"):
        load_problem(problem, str(path))


def test_flowshop_values_past_int64_name_the_path():
    instance = FlowshopInstance("x", [[2**61, 2**61]], [0, 0], None, "file", Path("some/flowshop.txt"))
    with pytest.raises(MolsError, match="^some/flowshop.txt: objective values"):
        Flowshop(instance)


def test_mqap_messages_read_as_sentences(tmp_path):
    header = "facilities: 2 objectives: 2 max_distances: 9 max flows: 9 correlation: 0.0 seed 1\n"
    path = write(tmp_path, "short.dat", header + "0 1\n1 0\n\n0 2\n2 0\n")
    with pytest.raises(InstanceError) as err:
        read_mqap(path)
    assert str(err.value) == (f"{path}:6: expected 3 matrices of 2 x 2 = 12 integers after the header's "
                              "'facilities: 2' and 'objectives: 2' (the distance matrix, then a flow matrix per "
                              "objective), found 8: a matrix is short or missing")
    path = write(tmp_path, "header.dat", "objectives: 2\n0 1\n1 0\n")
    with pytest.raises(InstanceError) as err:
        read_mqap(path)
    assert str(err.value) == (f"{path}:1: the header line must give 'facilities: N' and 'objectives: K'; it has "
                              "no 'facilities': 'objectives: 2'")


def test_whole_numbers_of_any_length():
    assert whole_number("0042", 100) == 42 and whole_number("100", 100) == 100
    for bad in ("101", "-1", "+1", "1.0", "", "\u00b2", "\u0663", "9" * 5000, "0" * 5000 + "1" * 4):
        assert whole_number(bad, 100) is None, bad
    assert whole_number("0" * 5000 + "7", 100) == 7
    assert integer("-0" + "0" * 5000 + "7", 100) == -7 and integer("+100", 100) == 100 and integer("-101", 100) is None


def test_a_name_too_long_for_the_system(tmp_path):
    assert not is_file(LONG_NAME) and find_bundled(LONG_NAME, ("qap",), ("", ".dat")) is None
    with pytest.raises(InstanceError, match="cannot read the file: File name too long"):
        read_text(tmp_path / LONG_NAME)
    with pytest.raises(InstanceError, match="no such instance file"):
        load_problem("flowshop", LONG_NAME)


def test_ppp_and_random_tsp_names_of_any_length():
    with pytest.raises(MolsError, match="M-N-sSEED takes M and N up to"):
        load_problem("ppp", "9" * 5000 + "-5")
    with pytest.raises(MolsError, match="random:N:SEED takes N up to"):
        load_problem("tsp", f"random:{'9' * 5000}:1")
    assert load_problem("ppp", "3-5-s" + str(2**40)).instance.seed == 2**40
    np.testing.assert_array_equal(load_problem("tsp", "random:5:7").xy, load_problem("tsp", "random:005:7").xy)
