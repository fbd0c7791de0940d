"""`mols bench threads`: one real run in a fresh process, then a cell's medians, ranges and ratio from given times
(the settings alternate), and the report files."""

from __future__ import annotations

import pandas as pd
from pytest import approx

from mols.bench import threads
from mols.bench.common import Spread
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_a_run_in_a_fresh_process_reports_its_seconds():
    assert 0 < threads.child_seconds("020_05_01", {"iterations": 5}, 1) < 60


def test_a_cell_gives_each_settings_median_and_range(tmp_path, monkeypatch):
    times = iter([1.0, 2.0, 3.0, 2.5, 2.0, 4.0])  # default, threads 1, default, ...: the settings alternate
    monkeypatch.setattr(threads, "child_seconds", lambda instance, fields, count: next(times))
    df = threads.run(["readme"], [0], repeats=3)
    (row,) = df.to_dict("records")
    assert Spread.read(row, "default_s") == Spread(2.0, 1.0, 3.0)
    assert Spread.read(row, "threads_1_s") == Spread(2.5, 2.0, 4.0)
    ratio = Spread.read(row, "default_over_threads_1")
    assert (ratio.median, ratio.low, ratio.high) == approx((0.8, 0.25, 1.5))
    md = threads.write_report(df, tmp_path, 3)
    csv = pd.read_csv(tmp_path / "threads.csv")
    for key in ("default_s", "threads_1_s", "default_over_threads_1"):
        assert len(measured_spreads(csv, key)) == 1
    assert markdown_spreads(md.read_text()) == [(2.0, 1.0, 3.0), (2.5, 2.0, 4.0), (0.8, 0.25, 1.5)]
