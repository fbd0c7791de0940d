"""`mols bench anytime` on the CPU at small sizes: every case under every variant, the trace's rows counted."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.bench.anytime import VARIANTS
from mols.cli import app


def test_anytime_bench_runs_each_case_under_each_variant(tmp_path):
    result = CliRunner().invoke(app, ["bench", "anytime", "-b", "cpu", "--small", "--repeats", "2", "--cases", "2,3",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "anytime.csv")
    assert list(df["variant"]) == list(VARIANTS) * 2
    assert (df["seconds_min"] <= df["seconds"]).all() and (df["seconds"] <= df["seconds_max"]).all()
    traced = df[df["variant"] != "none"]
    assert (traced["trace_rows"] >= 2).all() and (df[df["variant"] == "none"]["trace_rows"] == 0).all()
    assert (df["own_percent"] >= 0).all() and (df[df["variant"] == "none"]["own_percent"] == 0).all()


def test_an_unknown_case_is_refused():
    result = CliRunner().invoke(app, ["bench", "anytime", "--cases", "7"])
    assert result.exit_code == 1 and "--cases" in result.output
