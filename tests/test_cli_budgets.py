"""`mols run` with budgets (--time, --evaluations, --target per objective) and --restarts: run.json's ended_by,
folder names, bad values exit 1 naming the option; a batch passes the budgets on to its children."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.reporting.tables import budget

runner = CliRunner()


def run_json(tmp_path: Path, *args) -> dict:
    result = runner.invoke(app, ["run", "020_05_01", "-b", "cpu", *args, "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "out" / "run.json").read_text())


@pytest.mark.parametrize("args, ended_by", [
    (["-i", "7"], "iterations"),
    (["--evaluations", "3000"], "evaluations"),  # 8 x 361 neighbors fit
    (["--time", "0.000001"], "time"),
    (["--restarts", "0"], "natural end"),
    (["--target", "1400,30000,20", "-i", "500"], "target"),
])
def test_run_json_says_which_budget_ended_the_run(tmp_path, args, ended_by):
    manifest = run_json(tmp_path, *args)
    assert manifest["status"] == "completed" and manifest["ended_by"] == ended_by
    if ended_by == "evaluations":
        assert manifest["iterations"] == 8 and manifest["evaluated_neighbors"] == 8 * 361
    if ended_by == "target":
        assert manifest["target"]["value"] == [1400, 30000, 20] and manifest["target"]["reached"]


def test_budgets_and_restarts_name_the_default_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for extra in (["--time", "0.01"], ["--evaluations", "800", "--restarts", "2"], ["--target", "1400,30000,20"]):
        result = runner.invoke(app, ["run", "020_05_01", "-b", "cpu", *extra])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "results").iterdir() if p.is_dir()) == [
        "020_05_01-pls-nondominated-insertion-T0.01-cpu-s0", "020_05_01-pls-nondominated-insertion-e800-R2-cpu-s0",
        "020_05_01-pls-nondominated-insertion-i10000-goal1400_30000_20-cpu-s0"]


@pytest.mark.parametrize("args, message", [
    (["--time", "-1"], "--time"), (["--evaluations", "-5"], "--evaluations"), (["--evaluations", "10"], "--evaluations"),
    (["--target", "1,2"], "--target"), (["--target", "a,b,c"], "--target"), (["--restarts", "-1"], "--restarts"),
    (["-a", "tabu", "--restarts", "1"], "--restarts"), (["-a", "tabu", "--time", "1"], "--iterations or --evaluations"),
])
def test_bad_budgets_exit_1_naming_the_option(tmp_path, args, message):
    result = runner.invoke(app, ["run", "020_05_01", "-b", "cpu", *args, "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_a_batch_passes_the_budgets_on(tmp_path):
    result = runner.invoke(app, ["run", "020_05_01", "-b", "cpu", "--time", "30", "--evaluations", "1000",
                                 "--batch", "2", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for seed in (0, 1):
        manifest = json.loads((tmp_path / "out" / f"seed-{seed}" / "run.json").read_text())
        assert manifest["config"]["time"] == 30 and manifest["config"]["evaluations"] == 1000
        assert manifest["ended_by"] == "evaluations" and manifest["iterations"] == 1000 // 361


def test_reports_state_the_budget():
    assert budget({"iterations": 10000}) == 10000
    assert budget({"iterations": None, "evaluations": 5000, "time": 2.5}) == "e5000 T2.5"
