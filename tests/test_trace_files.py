"""trace.csv in results folders: written by `mols run` with front.csv and run.json (its rows and SHA-256, and the
reference point, in run.json), kept by an interrupted run up to its end, and by ILS-3opt."""

from __future__ import annotations

import hashlib
import json

import moocore
import pandas as pd
import pytest
from typer.testing import CliRunner

import mols.runner
from mols.cli import app
from mols.runner import build_search

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def read(folder):
    """The folder's run.json, front.csv and trace.csv."""
    return (json.loads((folder / "run.json").read_text()), pd.read_csv(folder / "front.csv"),
            pd.read_csv(folder / "trace.csv"))


def test_mols_run_writes_the_trace_and_its_reference_point(tmp_path):
    result = run("run", "020_05_01", "-b", "cpu", "-i", "200", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    manifest, front, trace = read(tmp_path)
    objectives = ["makespan", "total_tardiness", "n_tardy"]
    assert list(trace.columns) == ["seconds", "iterations", "evaluations", "archive",
                                   *(f"best_{name}" for name in objectives), "hypervolume"]
    record = manifest["trace"]
    assert record["rows"] == len(trace) >= 20
    assert record["sha256"] == hashlib.sha256((tmp_path / "trace.csv").read_bytes()).hexdigest()
    last = trace.iloc[-1]
    assert (last["iterations"], last["evaluations"], last["archive"]) == (200, manifest["evaluated_neighbors"],
                                                                         len(front))
    assert last[[f"best_{name}" for name in objectives]].tolist() == front[objectives].min().tolist()
    reference = record["reference_point"]
    assert last["hypervolume"] == pytest.approx(moocore.hypervolume(front[objectives].to_numpy(float), ref=reference))
    again = tmp_path / "again"
    assert run("run", "020_05_01", "-b", "cpu", "-a", "tabu", "-i", "20", "-s", "9", "-o", str(again)).exit_code == 0
    assert read(again)[0]["trace"]["reference_point"] == reference  # the instance's, whatever the run


def test_an_interrupted_run_writes_its_trace_up_to_its_end(tmp_path, monkeypatch):
    def build(config, on_iteration=None):
        def stop(done, size):
            if done == 7:
                raise KeyboardInterrupt

        return build_search(config, stop)

    monkeypatch.setattr(mols.runner, "build_search", build)
    result = run("run", "020_05_01", "-b", "cpu", "-i", "300", "-o", str(tmp_path))
    assert result.exit_code == 130, result.output
    manifest, front, trace = read(tmp_path)
    assert manifest["status"] == "interrupted" and manifest["trace"]["rows"] == len(trace)
    assert trace["iterations"].iloc[-1] == 7 and trace["archive"].iloc[-1] == len(front)
    assert trace["seconds"].iloc[-1] == manifest["wall_seconds"]


def test_ils3opt_writes_its_trace(tmp_path):
    result = run("run", "kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "-i", "512", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    manifest, front, trace = read(tmp_path)
    assert list(trace.columns) == ["seconds", "iterations", "evaluations", "archive", "best_length"]
    assert manifest["trace"]["reference_point"] is None  # one objective: no hypervolume
    assert trace["iterations"].iloc[-1] == manifest["iterations"]
    assert trace["best_length"].iloc[-1] == front["length"].iloc[0] == manifest["details"]["best_length"]
    assert trace["best_length"].is_monotonic_decreasing
