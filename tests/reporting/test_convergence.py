"""`mols report`'s anytime plots from the runs' traces: convergence curves over 3 seeds of 2 algorithms (hypervolume
with several objectives, the best value with one) and runtime distributions to a target; older folders without a
trace.csv are left out of them, not refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mols.reporting import build_report, write_report
from mols.reporting.convergence import value_at
from mols.results import RunContext, write_results
from mols.runner import RunConfig, build_search

SEEDS = (0, 1, 2)
FLOWSHOP = {"instance": "020_05_01", "backend": "cpu", "iterations": 150}
QAP = {"instance": "tai12a", "problem": "qap", "backend": "cpu", "iterations": 1500, "target": 230000}


def write_run(folder, config: RunConfig):
    search = build_search(config)
    write_results(folder, config, search.run(), RunContext.of(search))
    return folder


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for seed in SEEDS:
        for algorithm in ("pls", "tabu"):
            write_run(root / "flowshop" / f"{algorithm}-s{seed}", RunConfig(**FLOWSHOP, algorithm=algorithm, seed=seed))
        for algorithm in ("hc", "its"):
            write_run(root / "qap" / f"{algorithm}-s{seed}", RunConfig(**QAP, algorithm=algorithm, seed=seed))
    return root


def test_the_report_draws_convergence_and_runtime_distributions(folders, tmp_path):
    report = write_report([folders], tmp_path)
    names = {p.name for p in report.files}
    assert {"convergence-020_05_01.png", "convergence-tai12a.png", "runtimes-tai12a.png"} <= names
    assert "runtimes-020_05_01.png" not in names  # several objectives, no target: no runtime distribution
    assert all(path.stat().st_size > 0 for path in report.files)
    markdown = (tmp_path / "report.md").read_text()
    assert markdown.count("Convergence: for each algorithm and backend") == 2
    assert markdown.count("Runtime distribution: for each algorithm and backend") == 1
    assert "![convergence of 020_05_01](convergence-020_05_01.png)" in markdown
    assert "![runtime distribution of tai12a](runtimes-tai12a.png)" in markdown

    curves = report.curves["020_05_01"]
    assert curves.measure == "hypervolume" and set(curves.runs.values()) == {3} and len(curves.curves) == 2
    for times, median, q1, q3 in curves.curves.values():
        assert (np.diff(times) > 0).all() and (q1 <= median).all() and (median <= q3).all()
        assert (np.diff(median) >= 0).all()  # each run's hypervolume only grows, and so does their median
    qap = report.curves["tai12a"]
    assert qap.measure == "best_cost"
    assert all((np.diff(median) <= 0).all() for _, median, _, _ in qap.curves.values())


def test_a_curve_is_the_median_of_the_runs_at_each_time(folders):
    report = build_report([folders / "flowshop"])
    group = report.groups[0]
    label = group.runs[0].label
    times, median, _, _ = report.curves[group.label].curves[label]
    runs = [run for run in group.runs if run.label == label]
    values = np.array([value_at(run, "hypervolume", times) for run in runs])
    np.testing.assert_allclose(median, np.median(values, axis=0))
    end = max(run.trace["seconds"].iloc[-1] for run in runs)
    assert times[-1] == pytest.approx(end)
    assert median[-1] == np.median([run.trace["hypervolume"].iloc[-1] for run in runs])  # ended runs keep their value


def test_the_runtime_distribution_counts_the_runs_that_reached_the_target(folders):
    report = build_report([folders / "qap"])
    runtimes = report.runtimes["tai12a"]
    assert runtimes.target == 230000
    for label, reached in runtimes.reached.items():
        runs = [run for run in report.groups[0].runs if run.label == label]
        assert runtimes.runs[label] == len(runs) == 3
        assert len(reached) == sum(run.manifest["target"]["reached"] for run in runs)
        assert (np.diff(reached) >= 0).all()
        assert all(t <= max(run.manifest["wall_seconds"] for run in runs) for t in reached)


def test_folders_without_a_trace_are_left_out_of_the_curves(folders, tmp_path):
    """An older folder (no trace.csv, run.json without `trace`) is still reported, and named beside the curves."""
    older = write_run(tmp_path / "older", RunConfig(**FLOWSHOP, algorithm="pls", seed=7))
    manifest = json.loads((older / "run.json").read_text())
    del manifest["trace"]
    (older / "run.json").write_text(json.dumps(manifest))
    (older / "trace.csv").unlink()
    report = write_report([folders / "flowshop", older], tmp_path / "report")
    assert len(report.runs) == 7 and not report.errors
    curves = report.curves["020_05_01"]
    assert curves.without == 1 and sum(curves.runs.values()) == 6
    assert "1 run(s) without trace.csv (older folders) left out" in (tmp_path / "report" / "report.md").read_text()
    only_older = build_report([older])
    assert only_older.curves == {} and only_older.runtimes == {}


def test_a_damaged_trace_is_named(folders, tmp_path):
    folder = write_run(tmp_path / "cut", RunConfig(**FLOWSHOP, algorithm="tabu", seed=4))
    text = (folder / "trace.csv").read_text()
    (folder / "trace.csv").write_text(text[: len(text) // 2])
    report = build_report([folders / "flowshop", folder])
    assert len(report.runs) == 6
    assert any("trace.csv is not the one run.json recorded" in error for error in report.errors)
