"""The `mols` command through Typer's CliRunner: outputs, files, and exit code 1 on bad input."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

import mols
from cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and mols.__version__ in result.output


def test_evaluate_identity_prints_objectives():
    result = run("evaluate", "020_05_01")
    assert result.exit_code == 0
    assert "1448" in result.output and "5290" in result.output


def test_evaluate_neighborhood_writes_csv(tmp_path):
    out = tmp_path / "F.csv"
    result = run("evaluate", "020_05_01", "-n", "insertion", "-b", "cpu", "--perm", ",".join(map(str, range(19, -1, -1))),
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out)
    assert list(frame.columns) == ["id", "i", "j", "makespan", "total_tardiness", "n_tardy"]
    assert len(frame) == 19 * 19
    pb = mols.load_problem("flowshop", "020_05_01")
    nbh = mols.get_neighborhood("insertion")
    x = list(range(19, -1, -1))
    row = frame.iloc[100]
    assert tuple(row[["makespan", "total_tardiness", "n_tardy"]]) == tuple(pb.evaluate(nbh.apply(x, 100)))


@pytest.mark.parametrize("args, message", [
    (["evaluate", "no_such_instance"], "no such instance"),
    (["evaluate", "020_05_01", "--perm", "0 1 2"], "--perm"),
    (["evaluate", "020_05_01", "--perm", "x y"], "--perm"),
    (["evaluate", "020_05_01", "-n", "bogus"], "bogus"),
    (["evaluate", "020_05_01", "-b", "tpu"], "tpu"),
    (["evaluate"], "Missing argument"),
    (["evaluate", "020_05_01", "--no-such-option"], "No such option"),
    (["bench", "neighborhood", "--sizes", "7x7"], "--sizes"),
])
def test_bad_input_exits_1_without_traceback(args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_malformed_instance_names_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1\n0\n0\n10\n5\n1\n7\n-3\n")  # a negative time on line 9
    result = run("evaluate", str(bad))
    assert result.exit_code == 1
    assert "bad.txt:9" in result.output.replace("\n", "")


def test_bench_neighborhood_writes_report(tmp_path):
    result = run("bench", "neighborhood", "--sizes", "20x10", "-n", "swap", "--repeats", "1", "--gpu-repeats", "2",
                 "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "neighborhood.csv")
    assert list(table["size"]) == ["20x10"] and (table["cpu_1core_nbr_per_s"] > 0).all()
    assert "CPU 1 core" in (tmp_path / "neighborhood.md").read_text()


def test_instances_lists_bundled_files():
    result = run("instances")
    assert result.exit_code == 0 and "200_20_01" in result.output
