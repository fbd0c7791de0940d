"""mols run's summary of a one-objective run: its best value, and its gap to the instance's best-known value where mols
knows one (a bundled instance), none for a file given by its path."""

from __future__ import annotations

import csv
import shutil

import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.problems import known_best
from mols.problems.io import bundled_instances_dir

runner = CliRunner()


def best_of(folder) -> int:
    with (folder / "front.csv").open(newline="") as f:
        return min(int(row["cost"]) for row in csv.DictReader(f))


def test_a_qap_run_says_its_best_cost_and_its_gap(tmp_path):
    result = runner.invoke(app, ["run", "tai12a", "-p", "qap", "-a", "its", "-i", "50", "-o", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    best = best_of(tmp_path / "r")
    gap = 100 * (best - 224416) / 224416
    assert f"best cost {best}, {gap:.3f} % above the best known 224416" in result.output


def test_a_file_given_by_its_path_gets_no_gap(tmp_path):
    copy = tmp_path / "tai12a.dat"
    shutil.copy(bundled_instances_dir() / "qap" / "tai12a.dat", copy)
    result = runner.invoke(app, ["run", str(copy), "-p", "qap", "-a", "its", "-i", "50", "-o", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert f"best cost {best_of(tmp_path / 'r')}\n" in result.output and "best known" not in result.output


@pytest.mark.parametrize("problem, instance, value", [("qap", "tai50a", 4938796), ("tsp", "pcb3038", 137694),
                                                     ("q3ap", "nug12", 978), ("flowshop", "020_10_01", None),
                                                     ("tsp", "random:300:1", None)])
def test_the_known_values_are_the_bundled_tables(problem, instance, value):
    assert known_best(problem, instance) == value


def test_weierstrass_knows_its_minimum_at_any_dimension():
    assert known_best("weierstrass", "10") == pytest.approx(-28.1562, abs=1e-3)
    assert known_best("weierstrass", "100:float32") == pytest.approx(-281.562, abs=1e-2)
