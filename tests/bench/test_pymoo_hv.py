"""`mols bench pymoo` on the CPU with a tiny wall time: a row per run, hypervolumes against a common reference
point, the report files, the command."""

from __future__ import annotations

import pandas as pd
from typer.testing import CliRunner

from mols.bench import pymoo_hv
from tests.bench.spreads import markdown_spreads


def test_rows_hypervolumes_and_report(tmp_path):
    seen = []
    df = pymoo_hv.run(["020_05_01"], pymoo_hv.METHODS, wall=0.15, seeds=2, backend="cpu", on_row=seen.append)
    assert len(seen) == len(df) == 4 * 2
    assert list(df["method"]) == ["pls", "pls", "tabu", "tabu", "nsga2", "nsga2", "nsga3", "nsga3"]
    assert (df["backend"] == "cpu").all() and (df["front"] > 0).all() and (df["evaluated"] > 0).all()
    assert ((df["hv"] >= 0) & (df["hv"] <= 1.1 ** 3)).all() and df["hv"].max() > 0
    assert (df["seconds"] < 5).all()
    md, csv = pymoo_hv.write_report(df, tmp_path / "out")
    assert len(pd.read_csv(csv)) == 8
    text = md.read_text()
    assert "| 020_05_01 | nsga3 | 2 |" in text and "- backend: cpu" in text and "- numpy:" in text
    assert len(markdown_spreads(text)) == 4  # each method's seconds over its seeds


def test_the_command_writes_the_report(tmp_path):
    from mols.cli import app

    result = CliRunner().invoke(app, ["bench", "pymoo", "--instances", "020_10_01", "--methods", "pls,nsga2",
                                      "--wall", "0.1", "--seeds", "1", "-b", "cpu", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pymoo.md").exists()
