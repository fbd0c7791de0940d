"""The newcomer's sweep of bad inputs (issue 37), sampled: malformed files for every reader, bad instance names and
bad options of `mols run` and `mols evaluate` each end in one line "error: ...", exit code 1 and no traceback;
a file's error names its path (and line). Nothing is searched: `mols evaluate` only reads and evaluates."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import mols.memory
from mols.cli import app

DIRECTORY = None  # a file case's content: make a directory there instead of a file
HUGE = "9" * 5000  # past the 4300 digits int() accepts
TSP = "NAME : other-name\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : {kind}\nNODE_COORD_SECTION\n{rows}EOF\n"
TSP_ROWS = "1 0 0\n2 3 4\n3 3 0\n"
LIEFOOGHE = "2\n1\n0\n0\n10\n5\n1\n7\n3\n"  # 2 jobs, 1 machine, seed 0: index, due date, time per job
TAILLARD = "number of jobs, number of machines, initial seed, upper bound and lower bound :\n{header}\n" \
           "processing times :\n{rows}"
MQAP = "facilities: 2 objectives: 2 max_distances: 9 max flows: 9 correlation: 0.0 seed 1\n"
MATRIX_2 = "0 1\n1 0\n"
BIG = " ".join(["1073741823"] * 3) + "\n"  # the largest values the QAP reader takes
PPP = "2 3\n+-+\n++-\n1 1\n"

# (problem, file name, content, instance argument, what the message says, its line or None)
FILES = [
    ("flowshop", "empty.txt", "", "{path}", "an empty file", 1),
    ("flowshop", "garbage.txt", bytes(range(128, 256)), "{path}", "not a text file: byte 0x80", 1),
    ("flowshop", "folder", DIRECTORY, "{path}", "this is a directory", None),
    ("flowshop", "nul.txt", "2\n1\n\0\n", "{path}", "NUL bytes", 3),
    ("flowshop", "latin1.txt", b"2\n1\n0\n\xe9\n", "{path}", "not UTF-8", 4),
    ("flowshop", "truncated.txt", LIEFOOGHE[:12], "{path}", "file ends early", 7),
    ("flowshop", "negative.txt", LIEFOOGHE.replace("\n3\n", "\n-3\n"), "{path}", "non-negative", 9),
    ("flowshop", "huge-n.txt", "2000000000" + LIEFOOGHE[1:], "{path}", "file ends early", 10),
    ("flowshop", "zeros.txt", "0" * 5000 + LIEFOOGHE[1:], "{path}", "expected at least 1 job, found 0", 1),
    ("flowshop", "big.txt", LIEFOOGHE.replace("\n10\n", f"\n{HUGE}\n"), "{path}", "expected at most", 5),
    ("flowshop", "index.txt", LIEFOOGHE.replace("\n1\n7\n", "\n4\n7\n"), "{path}", "expected job index 1", 7),
    ("flowshop", "ta-seed.txt", TAILLARD.format(header="2 1 0 9 9", rows="1 2\n"), "{path}", "Taillard seed", 2),
    ("flowshop", "ta-count.txt", TAILLARD.format(header="3 1 7 9 9", rows="1 2\n"), "{path}", "expected 3", 4),
    ("qap", "empty.dat", "\n\n", "{path}", "empty file", None),
    ("qap", "short.dat", "3\n0 1 2\n1 0 3\n2 3 0\n\n0 1 2\n", "{path}", "a matrix is short or missing", 6),
    ("qap", "one.dat", "1\n0\n0\n", "{path}", "at least 2", 1),
    ("qap", "float.dat", "2\n0 1\n1 0.5\n" + MATRIX_2, "{path}", "expected integers, found '0.5'", 3),
    ("qap", "huge-n.dat", "1000000000\n" + MATRIX_2 * 2, "{path}", "a matrix is short or missing", 5),
    ("qap", "underscore.dat", "2\n0 1_0\n1 0\n" + MATRIX_2, "{path}", "expected integers, found '1_0'", 2),
    ("qap", "arabic.dat", "2\n0 1\n\u0663 0\n" + MATRIX_2, "{path}", "expected integers, found '\u0663'", 3),
    ("qap", "digits.dat", f"2\n0 {HUGE}\n1 0\n" + MATRIX_2, "{path}", "expected values within", 2),
    ("qap", "bigvals.dat", "3\n" + BIG * 6, "{path}", "objective values could reach", None),
    ("mqap", "header.dat", "facilities = 2 max flows 9\n" + MATRIX_2 * 3, "{path}", "it has no 'objectives'", 1),
    ("mqap", "short.dat", MQAP + MATRIX_2 * 2, "{path}", "integers after the header's 'facilities: 2'", 5),
    ("mqap", "digits.dat", f"facilities: {HUGE} objectives: 2\n" + MATRIX_2 * 3, "{path}", "within", 1),
    ("mqap", "none.dat", MQAP.replace("objectives: 2", "objectives: 0") + MATRIX_2, "{path}", "at least 1", 1),
    ("tsp", "section.tsp", "NAME : x\nTYPE : TSP\n", "{path}", "no NODE_COORD_SECTION", None),
    ("tsp", "dim2.tsp", TSP.format(n=2, kind="EUC_2D", rows=TSP_ROWS), "{path}", "DIMENSION must be", None),
    ("tsp", "huge-dim.tsp", TSP.format(n=2000000000, kind="EUC_2D", rows=TSP_ROWS), "{path}", "3 coordinates", None),
    ("tsp", "digits.tsp", TSP.format(n=HUGE, kind="EUC_2D", rows=TSP_ROWS), "{path}", "DIMENSION must be", None),
    ("tsp", "super.tsp", TSP.format(n="\u00b2", kind="EUC_2D", rows=TSP_ROWS), "{path}", "DIMENSION must be", None),
    ("tsp", "geo.tsp", TSP.format(n=3, kind="GEO", rows=TSP_ROWS), "{path}", "EDGE_WEIGHT_TYPE 'GEO'", None),
    ("tsp", "nan.tsp", TSP.format(n=3, kind="EUC_2D", rows=TSP_ROWS.replace("3 4", "nan 4")), "{path}", "id 2", 7),
    ("tsp", "order.tsp", TSP.format(n=3, kind="ATT", rows=TSP_ROWS.replace("2 3", "5 3")), "{path}", "id 2", 7),
    ("tsp", "far.tsp", TSP.format(n=3, kind="EUC_2D", rows=TSP_ROWS.replace("3 4", "1e12 4")), "{path}",
     "too far for the int32 distances", None),
    ("ppp", "comments.ppp", "# nothing\n", "{path}", "empty file", None),
    ("ppp", "zero.ppp", "0 3\n", "{path}", "two whole numbers in 1..", 1),
    ("ppp", "digits.ppp", f"{HUGE} 3\n+-+\n", "{path}", "two whole numbers in 1..", 1),
    ("ppp", "huge-m.ppp", "2000000000 3\n+-+\n", "{path}", "expected m = 2000000000 rows", 2),
    ("ppp", "sign.ppp", PPP.replace("++-", "+x-"), "{path}", "'x' is not a sign", 3),
    ("ppp", "parity.ppp", PPP.replace("1 1", "1 2"), "{path}", "parity", 4),
    ("q3ap", "two.dat", "2\n" + MATRIX_2 * 2, "{path}", "expected 3 matrices", 5),
    ("q3ap", "negative.dat", "-3\n", "{path}", "at least 2", 1),
    ("q3ap", "bigvals.dat", "2\n" + "1073741823 1073741823\n" * 6, "{path}", "objective values could reach", None),
    ("q3ap", "general-short.txt", "general 2\n1 2 3\n", "{path}", "b is short", 2),
    ("q3ap", "general-huge.txt", "general 40\n1 2 3\n", "{path}", "would take 15.3 GiB of memory", 1),
    ("q3ap", "damaged.npz", b"PK\x03\x04 not an archive", "{path}", "not a NumPy .npz archive of b and C", None),
    ("coloring", "huge.col", "p edge 2000000000 1\ne 1 2\n", "{path}:3", "would take 29.8 GiB of memory", 1),
    ("coloring", "none.col", "c only a comment\n", "{path}:3", "no 'p edge N M' line", None),
    ("coloring", "early.col", "e 1 2\np edge 2 1\n", "{path}:3", "before the 'p edge N M' line", 1),
    ("coloring", "range.col", "p edge 3 1\ne 1 4\n", "{path}:3", "out of range 1..3", 2),
    ("coloring", "count.col", "p edge 3 2\ne 1 2\n", "{path}:3", "announces M = 2 'e' lines, found 1", 1),
    ("coloring", "digits.col", f"p edge {HUGE} 1\n", "{path}:3", "expected a whole number", 1),
    ("coloring", "no-k.col", "p edge 3 1\ne 1 2\n", "{path}", "give the number of colors", None),
    ("coloring", "k1.col", "p edge 3 1\ne 1 2\n", "{path}:1", "must be in 2..3", None),
    ("coloring", "kx.col", "p edge 3 1\ne 1 2\n", "{path}:x", "expected NAME:K", None),
]

# (problem, instance argument, what the message says, what it names): names, not files
NAMES = [
    ("weierstrass", "0", "expected a dimension 1..1000", "'0'"),
    ("weierstrass", "10:float16", "expected a dimension", "10:float16"),
    ("weierstrass", HUGE, "expected a dimension", HUGE[:60]),
    ("coloring", "no-such-graph:3", "no such instance file", "no-such-graph"),
    ("coloring", "myciel5:99999999999", "expected NAME:K", "myciel5:99999999999"),
    ("coloring", "myciel5:1", "must be in 2..47", "myciel5:1"),
    ("ppp", "0-5", "need m >= 1 rows", "0-5"),
    ("ppp", f"{HUGE}-5", "M-N-sSEED takes M and N up to", HUGE[:60]),
    ("ppp", "100000-100000", "would take 27.9 GiB of memory", "100000-100000"),
    ("tsp", "random:2:1", "at least 3 cities", "random:2:1"),
    ("tsp", f"random:{HUGE}:1", "random:N:SEED takes N up to", "random:999"),
    ("tsp", "random:999999999:1", "would take 29.8 GiB", "random:999999999:1"),
    ("qap", "no-such-qap", "no such instance file", "no-such-qap"),
    ("q3ap", "random:1:5", "a Q3AP needs n >= 2 positions", "random:1:5"),
    ("q3ap", "random:40:5", "would take 15.3 GiB of memory", "random:40:5"),
]

# (arguments, what the message names): options that mols itself checks
OPTIONS = [
    (["run", "020_05_01", "-b", "cpu", "-i", "0"], "--iterations"),
    (["run", "020_05_01", "-b", "cpu", "--time", "-1"], "--time"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--weights", "a,b"], "--weights"),
    (["evaluate", "020_05_01", "-b", "cpu", "--solution", "0 1 x"], "--solution"),
]

# Options that Click refuses before mols runs: exit code 1 and no traceback, but Click's usage panel
# ("Usage: ..." and a boxed "Invalid value for ..."), not the one line "error: ..." (mols/cli/console.py).
USAGE = [
    (["run", "020_05_01", "-b", "cpu", "--seed", "-3"], "'--seed'"),
    (["run", "020_05_01", "-b", "cpu", "-p", "nosuch"], "'--problem'"),
    (["run", "020_05_01", "-b", "cpu", "-n", "nosuch"], "'--neighborhood'"),
    (["evaluate", "020_05_01", "-b", "cpu", "-p", "nosuch"], "'--problem'"),
    (["evaluate", "020_05_01", "-b", "cpu", "-n", "nosuch"], "'--neighborhood'"),
]

runner = CliRunner()


@pytest.fixture(autouse=True)
def sweep(monkeypatch, tmp_path):
    """As on a machine with 4 GiB available, so that a huge declared size is refused on any machine; a run's
    folder, if one were made, under tmp_path. (An error is one line at any console width.)"""
    monkeypatch.setattr(mols.memory, "available_bytes", lambda: 4 * mols.memory.GIB)
    monkeypatch.chdir(tmp_path)


def error_line(args: list[str]) -> str:
    """The one line the command printed, after checking its exit code 1 and that it is a mols error."""
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, Exception), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


@pytest.mark.parametrize("problem, name, content, argument, says, line", FILES,
                         ids=[f"{case[0]}-{case[1]}" for case in FILES])
def test_a_bad_file_names_its_path_and_line(tmp_path, problem, name, content, argument, says, line):
    path = tmp_path / "inputs" / name
    path.parent.mkdir()
    if content is DIRECTORY:
        path.mkdir()
    else:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    message = error_line(["evaluate", argument.format(path=path), "-p", problem, "-b", "cpu"])
    assert says in message
    assert f"{path}:{line}: " in message if line is not None else str(path) in message


def test_run_names_a_bad_file_as_evaluate_does(tmp_path):
    path = tmp_path / "short.dat"
    path.write_text("3\n0 1 2\n")
    evaluated = error_line(["evaluate", str(path), "-p", "qap", "-b", "cpu"])
    assert error_line(["run", str(path), "-p", "qap", "-b", "cpu", "-i", "1", "-o", "out"]) == evaluated
    assert evaluated.startswith(f"error: {path}:2: ") and not (tmp_path / "out").exists()


@pytest.mark.parametrize("problem, argument, says, names", NAMES, ids=[f"{case[0]}-{case[1][:20]}" for case in NAMES])
def test_a_bad_instance_name_is_one_line(problem, argument, says, names):
    message = error_line(["evaluate", argument, "-p", problem, "-b", "cpu"])
    assert says in message and names in message


@pytest.mark.parametrize("args, option", OPTIONS, ids=[" ".join(args[3:]) for args, _ in OPTIONS])
def test_a_bad_option_is_one_line_naming_it(args, option):
    assert option in error_line(args)


@pytest.mark.parametrize("args, option", USAGE, ids=[" ".join(args[3:]) for args, _ in USAGE])
def test_an_option_click_refuses_exits_1_naming_it(args, option):
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "Traceback" not in result.output and not isinstance(result.exception, Exception)
    assert "Invalid value for" in result.output and option in result.output


@pytest.mark.parametrize("args, gives, also", [
    (["run", "tai12a", "-b", "cpu", "-i", "1"], "--problem qap", "flowshop"),
    (["run", "nug12", "-p", "tsp", "-b", "cpu", "-i", "1"], "--problem qap", "q3ap"),
    (["evaluate", "kroA100", "-b", "cpu"], "--problem tsp", "flowshop")], ids=["run-qap", "run-two", "evaluate"])
def test_another_problems_instance_names_the_problem_to_give(args, gives, also):
    message = error_line(args)
    assert gives in message and also in message and args[1] in message


@pytest.mark.parametrize("problem, suffix", [("tsp", ".tsp"), ("qap", ".dat")])
def test_a_file_of_another_problem_names_the_problem_to_give(tmp_path, problem, suffix):
    """A TSPLIB or QAPLIB file run without -p: the flowshop reader's error, and the problem that reads the file."""
    from mols.problems.qap.instance import resolve_qap
    from mols.problems.tsp.instance import resolve_tsp

    bundled = resolve_tsp("kroA100") if problem == "tsp" else resolve_qap("tai12a", "qap")
    path = tmp_path / f"mine{suffix}"
    path.write_bytes(bundled.read_bytes())
    message = error_line(["run", str(path), "-b", "cpu", "-i", "1"])
    assert f"reads as a {problem} instance: give --problem {problem} (as flowshop: {path}:" in message
    assert "reads as" not in error_line(["run", str(tmp_path / "none.txt"), "-b", "cpu", "-i", "1"])


def test_the_library_names_the_parameter():
    from mols.errors import OptionError
    from mols.problems import load_problem

    with pytest.raises(OptionError, match="give problem qap") as raised:
        load_problem("flowshop", "tai12a")
    assert raised.value.parameter == "problem"
