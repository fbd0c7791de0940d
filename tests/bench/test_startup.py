"""`mols bench startup`: fresh processes timed (their median and range), the largest imports; a bad backend."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_bench_startup_times_help_import_and_a_short_run_in_fresh_processes(tmp_path):
    result = CliRunner().invoke(app, ["bench", "startup", "--backends", "cpu", "--repeats", "2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "startup.csv")
    assert list(table["command"]) == ["mols --help", "import mols", "mols run 020_10_01 -a tabu -i 10 -b cpu"]
    assert (table["runs"] == 2).all() and (measured_spreads(table, "seconds")["seconds_min"] > 0).all()
    text = (tmp_path / "startup.md").read_text()
    assert len(markdown_spreads(text)) == 3
    assert "| numba |" in text or "| numpy |" in text  # the largest imports of the run


def test_bench_startup_refuses_an_unknown_backend(tmp_path):
    result = CliRunner().invoke(app, ["bench", "startup", "--backends", "tpu", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--backends" in result.output
