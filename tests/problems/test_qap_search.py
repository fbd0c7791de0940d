"""Searches on QAP and mQAP through the registry: tabu reaches tai12a's optimum, PLS-≠ on
KC10-2fl-1uni stays within the published Pareto set, and the CLI runs both end to end."""

from __future__ import annotations

import numpy as np
import pandas as pd
from typer.testing import CliRunner

from mols.cli import app
from mols.problems.qap.instance import read_pareto_set, resolve_qap
from mols.runner import RunConfig, solve


def test_pls_on_kc10_reaches_the_published_pareto_set():
    """Every point found is weakly dominated by a point of the exact front (.PO, found by
    enumeration), so the evaluation agrees with Knowles and Corne's; the fraction of the
    published front found is printed (-s shows it)."""
    result = solve(RunConfig("KC10-2fl-1uni", problem="mqap", variant="nondominated", backend="cpu",
                             iterations=2000, seed=0))
    _, P = read_pareto_set(resolve_qap("KC10-2fl-1uni", "mqap").with_suffix(".PO"), 10, 2)
    F = result.archive.F
    assert all(np.any(np.all(P <= f, axis=1)) for f in F)
    found = {tuple(f) for f in F} & {tuple(p) for p in P}
    print(f"PLS-≠ on KC10-2fl-1uni: {len(found)} of the {len(P)} published Pareto points found")
    assert len(found) >= len(P) // 2


def test_tabu_finds_tai12a_optimum():
    result = solve(RunConfig("tai12a", problem="qap", algorithm="tabu", backend="cpu", iterations=500, seed=0))
    assert result.archive.F.min() == 224416  # optimal (QAPLIB)


def test_cli_runs_qap_and_mqap(tmp_path):
    runner = CliRunner()
    for k, args in enumerate((["tai12a", "-p", "qap", "-a", "tabu"], ["KC10-2fl-1uni", "-p", "mqap", "-a", "pls"],
                              ["tai12a", "-p", "qap", "-a", "its", "--run-length", "10"])):
        out = tmp_path / str(k)
        result = runner.invoke(app, ["run", *args, "-b", "cpu", "-i", "40", "-o", str(out)])
        assert result.exit_code == 0, result.output
        front = pd.read_csv(out / "front.csv")
        assert len(front) >= 1 and "solution" in front.columns


def test_report_uses_the_published_front_as_reference(tmp_path):
    """A short run finds part of the KC10 front; the report's reference set is the whole published front."""
    from mols.reporting import build_report

    out = tmp_path / "kc10"
    result = CliRunner().invoke(app, ["run", "KC10-2fl-1uni", "-p", "mqap", "-b", "cpu", "-i", "5", "-o", str(out)])
    assert result.exit_code == 0, result.output
    _, P = read_pareto_set(resolve_qap("KC10-2fl-1uni", "mqap").with_suffix(".PO"), 10, 2)
    assert len(pd.read_csv(out / "front.csv")) < len(P)
    reference = build_report([out]).references["KC10-2fl-1uni"]
    assert sorted(map(tuple, reference)) == sorted(map(tuple, P))
