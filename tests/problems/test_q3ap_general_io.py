"""The general Q3AP's files: text and .npz written and read back, either form found by its content, and bad files
refused with the file and line (or array) named; sizes that do not fit in memory refused before any array is made;
`mols generate q3ap` and runs of general instances through the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import mols.memory
from mols.cli import app
from mols.errors import InstanceError, MolsError
from mols.problems import load_problem
from mols.problems.q3ap import Q3ap, Q3apGeneral, random_general, read_instance, write_general

runner = CliRunner()
B2 = "1 2 3 4 5 6 7 8\n"  # the 2^3 values of b for n = 2
C2 = "0 1 2 3 4 5 6 7\n" * 8  # the 2^6 values of C


@pytest.mark.parametrize("suffix", [".txt", ".npz", ".dat"])
def test_written_and_read_back(tmp_path, suffix):
    instance = random_general(3, 5)
    path = tmp_path / f"r3{suffix}"
    write_general(instance, path)
    again = read_instance(path)
    np.testing.assert_array_equal(again.b, instance.b)
    np.testing.assert_array_equal(again.c, instance.c)
    assert again.name == "r3" and again.path == path and again.c.dtype == np.int32
    problem = load_problem("q3ap", str(path))
    assert isinstance(problem, Q3apGeneral)
    x = problem.random_solution(np.random.default_rng(0))
    assert problem.evaluate(x)[0] == Q3apGeneral(instance).evaluate(x)[0]


def test_a_hand_written_text_file(tmp_path):
    """Rows of any length, blank lines, a sign and leading zeros; the last index runs fastest."""
    path = tmp_path / "hand.txt"
    path.write_text("GENERAL 2\n" + B2 + "\n" + "0 1 2 3\n4 5 6 7\n" * 7 + "+0 1 2 3 4 5 6 000000000007\n")
    instance = read_instance(path)
    assert instance.b[1, 0, 1] == 6 and instance.c[1, 1, 1, 1, 1, 1] == 7 and instance.c[0, 0, 0, 0, 1, 0] == 2


def test_the_product_form_is_still_read_as_such():
    assert isinstance(load_problem("q3ap", "nug12"), Q3ap)


@pytest.mark.parametrize("text, message, line", [
    ("general\n" + B2 + C2, "the first line must be 'general N' with the size N in 2..9999, found 'general'", 1),
    ("general 1\n", "the first line must be 'general N'", 1),
    ("\ngeneral 2 3\n" + B2 + C2, "found 'general 2 3'", 2),
    ("general two\n" + B2 + C2, "found 'general two'", 1),
    ("general 2\n" + B2[:-3] + "\n", ("expected n^3 + n^6 = 72 integers after 'general 2' (b, then C), found 7: "
                                      "b is short"), 2),
    ("general 2\n" + B2 + C2[:-3] + "\n", "found 71: C is short", 10),
    ("general 2\n" + B2 + C2 + "9\n", ("expected n^3 + n^6 = 72 integers after 'general 2' (b, then C): this "
                                       "line holds the first extra one"), 11),
    ("general 2\n" + B2 + C2.replace("5", "5.5", 1), "expected integers, found '5.5'", 3),
    ("general 2\n" + B2 + C2.replace("5", "1_0", 1), "expected integers, found '1_0'", 3),
    ("general 2\n" + B2.replace("8", "2147483648"), "expected values within +-2147483647, found '2147483648'", 2),
    ("general 2\n" + B2 + C2.replace("7", "-99999999999", 1), "found '-99999999999'", 3),
])
def test_bad_text_files_name_the_file_and_line(tmp_path, text, message, line):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InstanceError) as err:
        read_instance(path)
    assert message in str(err.value) and err.value.line == line and err.value.path == path


def write_npz(path, **arrays):
    with path.open("wb") as f:
        np.savez(f, **arrays)
    return path


B = np.arange(8).reshape(2, 2, 2)
C = np.arange(64).reshape((2,) * 6)


@pytest.mark.parametrize("arrays, message", [
    ({"b": B}, "expected the arrays b and C, found b"),
    ({"b": B, "C": C, "D": C}, "expected the arrays b and C, found C, D, b"),
    ({"b": B.astype(float), "C": C}, "array 'b': expected integers, found dtype float64"),
    ({"b": B, "C": C.astype(bool)}, "array 'C': expected integers, found dtype bool"),
    ({"b": B, "C": C.reshape(8, 8)}, "array 'C': expected the shape (n,) * 6 with n >= 2 the size of b, found (8, 8)"),
    ({"b": np.zeros((3, 3, 3), int), "C": C}, "array 'C': expected the shape (n,) * 6"),
    ({"b": np.zeros((1, 1, 1), int), "C": np.zeros((1,) * 6, int)}, "array 'b': expected the shape (n,) * 3 with n"),
    ({"b": B, "C": np.where(C == 37, 2**40, C)}, ("array 'C': expected values within +-2147483647, found "
                                                  "1099511627776 at index (1, 0, 0, 1, 0, 1)")),
    ({"b": -B * 2**40, "C": C}, ("array 'b': expected values within +-2147483647, found -1099511627776 at "
                                 "index (0, 0, 1)")),
])
def test_bad_npz_files_name_the_file_and_array(tmp_path, arrays, message):
    path = write_npz(tmp_path / "bad.npz", **arrays)
    with pytest.raises(InstanceError) as err:
        load_problem("q3ap", str(path))
    assert message in str(err.value) and str(err.value).startswith(f"{path}: ")


def test_a_damaged_archive_is_refused(tmp_path):
    path = write_npz(tmp_path / "cut.npz", b=B, C=C)
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(InstanceError, match=f"^{path}: not a NumPy .npz archive of b and C"):
        read_instance(path)


def test_sizes_that_do_not_fit_are_refused_before_any_array(tmp_path, monkeypatch):
    """The header's n (text), the arrays' headers (.npz) and random:N:SEED are checked against the memory available,
    and the message names the file (and line) or the name, and the bytes needed."""
    monkeypatch.setattr(mols.memory, "available_bytes", lambda: 1 << 20)
    path = tmp_path / "big.txt"
    path.write_text("\ngeneral 30\n1 2 3\n")
    with pytest.raises(MolsError) as err:
        read_instance(path)
    assert str(err.value) == (f"{path}:2: the costs of a general Q3AP of size n = 30 (C: 30^6 = 729,000,000 entries, "
                              "b: 27,000; 2,916,108,000 bytes) would take 2.7 GiB of memory, more than the 1.0 MiB "
                              "available; choose a smaller instance or neighborhood")
    npz = write_npz(tmp_path / "big.npz", b=np.zeros((8,) * 3, np.int32), C=np.zeros((8,) * 6, np.int32))
    with pytest.raises(MolsError, match=f"^{npz}: the costs of a general Q3AP of size n = 8 .* 1,050,624 bytes"):
        read_instance(npz)
    with pytest.raises(MolsError, match=r"^random:12:1: the costs .* 11,950,848 bytes\) would take 11.4 MiB"):
        load_problem("q3ap", "random:12:1")


def test_generate_then_run_through_the_cli(tmp_path):
    path = tmp_path / "g6.npz"
    result = runner.invoke(app, ["generate", "q3ap", "6", "--seed", "4", "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert "random:6:4" in result.output and path.is_file()
    np.testing.assert_array_equal(read_instance(path).c, random_general(6, 4).c)
    for instance in (str(path), "random:6:4"):
        out = tmp_path / instance.replace(":", "-").replace("/", "_")
        result = runner.invoke(app, ["run", instance, "-p", "q3ap", "-a", "its", "-i", "30", "-b", "cpu", "-o", str(out)])
        assert result.exit_code == 0, result.output
        front = pd.read_csv(out / "front.csv")
        problem = load_problem("q3ap", instance)
        assert problem.evaluate(problem.encoding.parse(front["solution"][0]))[0] == front["cost"][0]


def test_a_bad_general_file_is_one_line_through_the_cli(tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("general 2\n" + B2)
    result = runner.invoke(app, ["run", str(path), "-p", "q3ap", "-b", "cpu", "-o", str(tmp_path / "r")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}:2: expected n^3 + n^6 = 72 integers" in " ".join(result.output.split())
