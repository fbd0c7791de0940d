"""Tests for the flowshop instance reader, Taillard's generator and bundled-instance lookup."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from mols.errors import InstanceError
from mols.problems.flowshop.instance import (
    read_flowshop,
    resolve_instance,
    taillard_due_dates,
    taillard_uniforms,
)
from mols.problems.io import bundled_instances_dir

FLOWSHOP = bundled_instances_dir() / "flowshop"
TAILLARD = FLOWSHOP / "taillard"
LIEFOOGHE_FILES = sorted(FLOWSHOP.glob("[0-9]*_*_*.txt")) + [FLOWSHOP / "derived" / "200_20_01.txt"]
TAILLARD_TWIN = {
    "020_05_01": "ta001",
    "020_05_02": "ta002",
    "020_10_01": "ta011",
    "020_10_02": "ta012",
    "020_20_01": "ta021",
    "050_05_01": "ta031",
    "050_10_01": "ta041",
    "050_20_01": "ta051",
    "100_05_01": "ta061",
    "100_10_01": "ta071",
    "100_20_01": "ta081",
    "200_10_01": "ta091",
    "200_20_01": "ta101",  # derived/, not an original Liefooghe file
}


def _bounds() -> dict[str, dict[str, str]]:
    with open(TAILLARD / "bounds.csv", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


BOUNDS = _bounds()


# --- bundled data ------------------------------------------------------------------------------


def test_bundled_file_counts():
    assert len(LIEFOOGHE_FILES) == 13
    assert len(list(TAILLARD.glob("ta*.txt"))) == 120 == len(BOUNDS)


@pytest.mark.parametrize("path", LIEFOOGHE_FILES, ids=lambda path: path.stem)
def test_liefooghe_file_loads_with_size_from_its_name(path):
    instance = read_flowshop(path)
    n, m, _ = (int(part) for part in path.stem.split("_"))
    assert (instance.name, instance.n, instance.m, instance.due_dates) == (path.stem, n, m, "file")
    assert instance.p.shape == (m, n) and instance.due.shape == (n,)
    assert instance.p.dtype == np.int64 and instance.due.dtype == np.int64
    assert instance.p.flags.c_contiguous  # the file is job-major; the array is machine-major
    assert instance.p.min() >= 1 and instance.p.max() <= 99


def test_every_taillard_file_loads_with_size_and_seed_from_bounds_csv():
    for ident, row in BOUNDS.items():
        instance = read_flowshop(TAILLARD / f"{ident}.txt")
        assert (instance.name, instance.n, instance.m) == (ident, int(row["n"]), int(row["m"]))
        assert (instance.seed, instance.due_dates) == (int(row["seed"]), "derived")
        assert instance.due.shape == (instance.n,) and instance.due.min() >= 0


@pytest.mark.parametrize("path", LIEFOOGHE_FILES, ids=lambda path: path.stem)
def test_liefooghe_file_equals_its_taillard_twin_and_due_date_rule(path):
    liefooghe = read_flowshop(path)
    taillard = read_flowshop(TAILLARD / f"{TAILLARD_TWIN[path.stem]}.txt")
    assert liefooghe.seed == taillard.seed
    np.testing.assert_array_equal(liefooghe.p, taillard.p)
    np.testing.assert_array_equal(liefooghe.due, taillard.due)  # the derived rule reproduces the file


@pytest.mark.parametrize("ident", ["ta001", "ta051", "ta071", "ta101", "ta120"])
def test_processing_times_regenerate_from_the_seed(ident):
    instance = read_flowshop(TAILLARD / f"{ident}.txt")
    draws = taillard_uniforms(instance.seed)
    regenerated = [[1 + math.floor(next(draws) * 99) for _ in range(instance.n)] for _ in range(instance.m)]
    np.testing.assert_array_equal(instance.p, regenerated)


def test_park_miller_stream_known_value():
    # Park & Miller (1988): from state 1, the 10000th state is 1043618065.
    draws = taillard_uniforms(1)
    for _ in range(9999):
        next(draws)
    assert round(next(draws) * (2**31 - 1)) == 1043618065


def test_taillard_due_dates_rejects_a_seed_the_generator_cannot_use():
    with pytest.raises(ValueError):
        taillard_due_dates(0, np.ones((2, 3), dtype=np.int64))


def test_instance_is_read_only_and_has_a_short_repr():
    instance = read_flowshop(FLOWSHOP / "020_10_01.txt")
    with pytest.raises(ValueError):
        instance.p[0, 0] = 5
    expected = "FlowshopInstance(name='020_10_01', n=20, m=10, seed=587595453, due_dates='file')"
    assert repr(instance) == expected


# --- small hand-written files --------------------------------------------------------------------

# N=2, M=2: line 1 N, 2 M, 3 seed, then job 0 on lines 4-6 and job 1 on lines 7-9.
LIEFOOGHE = ["2", "2", "123", "0", "10", "1 2 ", "1", "20", "3 4 "]
# n=3, m=2: line 1 header, 2 sizes, 3 "processing times :", 4-5 machine rows.
TAILLARD_TEXT = [
    "number of jobs, number of machines, initial seed, upper bound and lower bound :",
    "           3           2   873654221          13          12",
    "processing times :",
    "  1  2  3",
    "  4  5  6",
]


def _edit(lines: list[str], line: int, text: str | None) -> list[str]:
    """lines with 1-based `line` replaced by `text` (None deletes it; line past the end appends)."""
    edited = list(lines)
    if text is None:
        del edited[line - 1]
    elif line > len(edited):
        edited.append(text)
    else:
        edited[line - 1] = text
    return edited


def _write(tmp_path, lines: list[str], newline: str = "\n", name: str = "case.txt"):
    path = tmp_path / name
    path.write_bytes(newline.join(lines).encode() + newline.encode())
    return path


@pytest.mark.parametrize(
    "newline, suffix",
    [("\n", ""), ("\n", "\n\n  \n"), ("\r\n", ""), ("\r\n", "\r\n")],
    ids=["lf", "trailing-blank-lines", "crlf", "crlf-blank-line"],
)
def test_valid_liefooghe_text_variants(tmp_path, newline, suffix):
    path = tmp_path / "tiny.txt"
    path.write_bytes((newline.join(LIEFOOGHE) + suffix).encode())  # no final newline unless suffix
    instance = read_flowshop(path)
    assert (instance.name, instance.n, instance.m, instance.seed) == ("tiny", 2, 2, 123)
    np.testing.assert_array_equal(instance.p, [[1, 3], [2, 4]])  # job-major file, machine-major array
    np.testing.assert_array_equal(instance.due, [10, 20])


def test_valid_taillard_text_without_final_newline(tmp_path):
    path = tmp_path / "tiny_ta.txt"
    path.write_bytes("\r\n".join(TAILLARD_TEXT).encode())
    instance = read_flowshop(path)
    assert (instance.n, instance.m, instance.seed, instance.due_dates) == (3, 2, 873654221, "derived")
    np.testing.assert_array_equal(instance.p, [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(instance.due, taillard_due_dates(873654221, instance.p))


@pytest.mark.parametrize(
    "lines, line, word",
    [
        (_edit(LIEFOOGHE, 6, "1"), 6, "found 1"),  # missing value
        (_edit(LIEFOOGHE, 6, "1 2 3"), 6, "found 3"),  # extra value
        (_edit(LIEFOOGHE, 5, "10 11"), 5, "due date"),  # extra value on a single-value line
        (_edit(LIEFOOGHE, 9, "3 x"), 9, "integer"),  # non-integer token
        (_edit(LIEFOOGHE, 8, "2.5"), 8, "integer"),  # non-integer due date
        (_edit(LIEFOOGHE, 6, "1 -2"), 6, "non-negative"),  # negative time
        (_edit(LIEFOOGHE, 8, "-20"), 8, "non-negative"),  # negative due date
        (_edit(LIEFOOGHE, 9, "3 99999999999"), 9, "at most"),  # absurdly large value
        (_edit(LIEFOOGHE, 7, "2"), 7, "job index"),  # wrong job index
        (_edit(LIEFOOGHE, 9, None), 9, "ends early"),  # truncated file
        (LIEFOOGHE[:3], 4, "ends early"),  # header only
        (_edit(LIEFOOGHE, 10, "5"), 10, "extra"),  # extra trailing data
        (_edit(LIEFOOGHE, 1, "0"), 1, "at least 1 job"),  # N = 0
        (_edit(LIEFOOGHE, 2, "0"), 2, "at least 1 machine"),  # M = 0
        (_edit(LIEFOOGHE, 2, "2 2"), 2, "number of machines"),  # N and M on one line
        ([], 1, "unknown format"),  # empty file
        (["hello world"], 1, "unknown format"),
        (["20 5"], 1, "Taillard"),  # two integers: neither format
        (_edit(TAILLARD_TEXT, 4, "  1  2"), 4, "processing times for machine 0"),  # short row
        (_edit(TAILLARD_TEXT, 5, "  4  5  6  7"), 5, "found 4"),  # long row
        (_edit(TAILLARD_TEXT, 5, "  4  x  6"), 5, "integer"),
        (_edit(TAILLARD_TEXT, 5, None), 5, "ends early"),  # missing machine row
        (_edit(TAILLARD_TEXT, 6, "  7  8  9"), 6, "extra"),  # one row too many
        (_edit(TAILLARD_TEXT, 2, "   3   2   873654221   13"), 2, "found 4"),  # missing bound
        (_edit(TAILLARD_TEXT, 2, "   3   2   0   13   12"), 2, "seed"),  # generator needs seed >= 1
        (_edit(TAILLARD_TEXT, 3, "times :"), 3, "processing times"),
    ],
)
def test_malformed_file_raises_with_line_number(tmp_path, lines, line, word):
    path = _write(tmp_path, lines)
    with pytest.raises(InstanceError) as caught:
        read_flowshop(path)
    assert caught.value.line == line
    assert word in str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_missing_file_and_directory_and_binary_file(tmp_path):
    for path, word in [(tmp_path / "nope.txt", "no such file"), (tmp_path, "directory")]:
        with pytest.raises(InstanceError, match=word) as caught:
            read_flowshop(path)
        assert caught.value.line is None and caught.value.path == path
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"20\n5\n\xff\xfe\x00\n")
    with pytest.raises(InstanceError, match="not a text file") as caught:
        read_flowshop(binary)
    assert caught.value.line == 3


# --- resolve_instance ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("020_10_01", FLOWSHOP / "020_10_01.txt"),
        ("ta011", TAILLARD / "ta011.txt"),
        ("ta011.txt", TAILLARD / "ta011.txt"),
        ("200_20_01", FLOWSHOP / "derived" / "200_20_01.txt"),
    ],
)
def test_resolve_bundled_names(tmp_path, monkeypatch, name, expected):
    monkeypatch.chdir(tmp_path)  # no ./instances here: falls back to the bundled folder
    assert resolve_instance(name) == expected


def test_a_bundled_name_resolves_the_same_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "instances" / "flowshop").mkdir(parents=True)  # a local ./instances no longer takes part
    _write(tmp_path / "instances" / "flowshop", ["x"], name="020_10_01.txt")
    assert resolve_instance("020_10_01") == FLOWSHOP / "020_10_01.txt"


def test_a_directory_never_shadows_a_bundled_name_but_a_file_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "020_10_01").mkdir()  # e.g. the results folder of a run named after its instance
    assert resolve_instance("020_10_01") == FLOWSHOP / "020_10_01.txt"
    local = _write(tmp_path, ["x"], name="ta011")
    assert resolve_instance("ta011").resolve() == local  # a file in the way: the user meant it
    assert resolve_instance(str(local)) == local


def test_a_directory_that_is_no_bundled_name_is_refused_as_a_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    with pytest.raises(InstanceError, match="this is a directory"):
        read_flowshop(resolve_instance("mine"))


def test_resolve_unknown_name_raises(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InstanceError, match="no such instance file") as caught:
        resolve_instance("ta999")
    assert caught.value.path.name == "ta999"
