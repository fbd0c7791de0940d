"""`mols bench batch` on the CPU with tiny budgets: its rows (one search on all cores, and searches spread one per
core), the ratios against one search, the files; an unknown instance is named."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def test_bench_batch_cli_writes_the_report(tmp_path):
    result = runner.invoke(app, ["bench", "batch", "--instances", "tai12a,kroA100", "--sizes", "1,2", "-i", "100",
                                 "--repeats", "1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "batch.csv")
    assert set(df.instance) == {"tai12a", "kroA100"} and set(df.problem) == {"qap", "tsp"}
    spread = df[df.device == "cpu x1 per search"]
    assert set(spread.searches) >= {1} and (spread.iterations == 10).all()  # the CPU runs a tenth of the steps
    ones = df[df.searches == 1]
    assert (ones["x_one_search"] == 1.0).all()  # the medians' ratio; the range: its runs' extremes' ratios
    assert (df.neighbors_per_s > 0).all()
    for key in ("seconds", "neighbors_per_s", "x_one_search"):
        assert len(measured_spreads(df, key)) == len(df)
    text = (tmp_path / "batch.md").read_text()
    assert "Batches of tabu searches" in text and len(markdown_spreads(text)) == 3 * len(df)


def test_bench_batch_names_an_unknown_instance(tmp_path):
    result = runner.invoke(app, ["bench", "batch", "--instances", "nowhere", "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "--instances" in result.output and "nowhere" in result.output
