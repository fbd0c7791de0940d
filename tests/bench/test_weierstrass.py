"""`mols bench weierstrass` on the CPU with a tiny budget: complete rows, the estimate mark, the report files."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.bench import weierstrass
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_rows_are_complete_and_the_report_is_written(tmp_path):
    seen = []
    df = weierstrass.run(dimensions=[1, 2], backends=["cpu1", "cpu"], iterations=8, cpu_iterations=4, repeats=2,
                         neighbors=64, on_row=seen.append)
    assert len(seen) == len(df) == 2 * 2 * 2  # dimensions x arithmetics x backends
    assert [(r["dimension"], r["precision"], r["backend"]) for r in seen[:4]] == [
        (1, "float64", "cpu1"), (1, "float64", "cpu"), (1, "float32", "cpu1"), (1, "float32", "cpu")]
    kernel = ["kernel_us", "kernel_us_min", "kernel_us_max"]  # the GPU kernel's time: CPU rows have none
    assert not df.drop(columns=kernel).isna().any().any() and df[kernel].isna().all().all()
    for key in ("s_per_iteration", "s_paper_iterations"):
        assert len(measured_spreads(df, key)) == 8
    assert (df["iterations"] == 4).all() and df["estimated"].all() and (df["neighbors"] == 64).all()
    assert (df["s_per_iteration"] > 0).all()
    np.testing.assert_allclose(df["s_paper_iterations"], df["s_per_iteration"] * 10_000)
    np.testing.assert_allclose(df["gap"], df["best_float64"] - df["known_minimum"])
    assert (df["gap"] > -1e-4 * df["dimension"]).all()  # nothing below the minimum (an estimate to 1e-4 n)
    f64 = df[df["precision"] == "float64"]
    np.testing.assert_array_equal(f64["best"], f64["best_float64"])
    assert (df["f32_f64_max"] >= df["f32_f64_mean"]).all() and (df["f32_f64_mean"] > 0).all()
    md, csv = weierstrass.write_report(df, tmp_path / "out")
    assert len(pd.read_csv(csv)) == 8
    text = md.read_text()
    assert "Table 5" in text and "| 2 | float32 | 64 |" in text and " est." in text and "1876 / 11" in text
    assert len(markdown_spreads(text)) == 2 * 8  # ms/it. and s / 10,000 it. of every row and backend


def test_the_command_keeps_the_rows_measured_when_a_later_one_fails(tmp_path, monkeypatch):
    """Ctrl-C ends `mols` at once, so the report is rewritten after each row (mols.cli.console.kept): here the
    second row fails and the first is in the report."""
    from typer.testing import CliRunner

    from mols.cli import app

    real, calls = weierstrass.tabu_row, []

    def second_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("killed")
        return real(*args, **kwargs)

    monkeypatch.setattr(weierstrass, "tabu_row", second_fails)
    result = CliRunner().invoke(app, ["bench", "weierstrass", "--dimensions", "1,2", "--precisions", "float32",
                                      "--backends", "cpu1", "--iterations", "3", "--repeats", "1",
                                      "-o", str(tmp_path)])
    assert result.exit_code != 0
    assert len(pd.read_csv(tmp_path / "weierstrass.csv")) == 1
