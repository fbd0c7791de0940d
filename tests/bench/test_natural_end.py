"""`mols bench natural-end` on the CPU: both PLS variants to their natural end on 20x10, the files; the run
options come from one dict of RunConfig fields."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.bench import natural_end
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def test_bench_natural_end_writes_the_report(tmp_path):
    result = runner.invoke(app, ["bench", "natural-end", "--sizes", "20x10", "--backends", "cpu", "--seeds", "2",
                                 "--repeats", "1", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(tmp_path / "natural-end.csv")
    assert list(df.variant) == ["nondominated", "dominating"] and (df["natural ends"] == 2).all()
    assert (df.iterations >= 1).all() and (df.front >= 1).all() and (df.seconds > 0).all()
    for key in ("seconds", "ms_per_iteration"):
        assert len(measured_spreads(df, key)) == 2
    md = (tmp_path / "natural-end.md").read_text()
    assert "PLS-1 to its natural end" in md and "PLS-≠" in md and "PLS-√" in md
    assert len(markdown_spreads(md)) == 2 * 2  # seconds and ms / iteration of both rows


def test_every_run_takes_the_extra_fields(monkeypatch):
    monkeypatch.setattr(natural_end, "RUN_FIELDS", {"threads": 1})
    config = natural_end.run_config("20x10", "dominating", "cpu", 3, 500)
    assert (config.threads, config.restarts, config.iterations, config.seed) == (1, 0, 500, 3)


def test_bench_natural_end_names_an_unknown_variant(tmp_path):
    result = runner.invoke(app, ["bench", "natural-end", "--variants", "sqrt", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--variants" in result.output
