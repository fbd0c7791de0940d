"""`mols instances`: every problem's bundled instances, or one problem's, named as an argument or with -p."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mols.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_instances_lists_bundled_files():
    result = run("instances")
    assert result.exit_code == 0 and "200_20_01" in result.output


@pytest.mark.parametrize("args", [("qap",), ("-p", "qap"), ("qap", "-p", "qap")])
def test_instances_of_one_problem(args):
    """`mols instances qap` (as a newcomer types it) lists the same as -p qap: QAP's instances, not the flowshop's."""
    result = run("instances", *args)
    assert result.exit_code == 0 and "tai12a" in result.output and "200_20_01" not in result.output


def test_instances_of_two_problems_is_an_error():
    result = run("instances", "qap", "-p", "tsp")
    assert result.exit_code == 1 and "give one" in result.output and "Traceback" not in result.output
