"""`mols bench ppp` on the CPU with tiny budgets: both parts' columns, complete rows, successes counted as
the public API's runs find them, the report files."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.bench import ppp
from mols.problems.ppp import PAPER_SIZES, load_ppp
from mols.problems.ppp.instance import PAPER_2013_SIZES
from mols.runner import solve
from tests.bench.spreads import markdown_spreads, measured_spreads

SPREAD = ("", "_min", "_max")
TIME_COLUMNS = ["cpu1_iterations", *(f"cpu1_s_per_iteration{end}" for end in SPREAD),
                *(f"cpu1_s_10000{end}" for end in SPREAD), "paper_m2050_s", "paper_cpu_s", "paper_gtx280_s"]
MEDIANS = [f"{key}{end}" for key in ("iterations_to_success", "s_to_success") for end in SPREAD]  # none: no success
SUCCESS_COLUMNS = ["success_backend", "runs", "run_iterations", "successes", "success_rate", *MEDIANS]


def test_both_parts_fill_their_columns_and_the_report(tmp_path):
    rows = []
    df = ppp.run({"hamming1": ("73-73",)}, ["cpu1"], iterations=2, repeats=1,
                 success_sizes={"hamming1": ("73-73",), "hamming2": ("15-17",)}, runs=2, run_iterations=30,
                 success_backend="cpu", on_row=rows.append)
    assert list(df.columns) == ["instance", "m", "n", "neighborhood", "neighbors", *TIME_COLUMNS, *SUCCESS_COLUMNS]
    assert [(r["neighborhood"], r["instance"]) for r in rows] == [("hamming1", "73-73"), ("hamming2", "15-17")]
    timed, small = df.iloc[0], df.iloc[1]
    assert timed.drop(MEDIANS).notna().all() and timed[MEDIANS].isna().all() == (timed["successes"] == 0)
    assert timed["cpu1_iterations"] == 2 and timed["paper_m2050_s"] == 1.7 and timed["neighbors"] == 73
    assert (timed["paper_cpu_s"], timed["paper_gtx280_s"]) == (1.1, 3.0)  # the 2009 report's configuration 3
    assert timed["cpu1_s_10000"] == 10_000 * timed["cpu1_s_per_iteration"] > 0
    for key in ("cpu1_s_per_iteration", "cpu1_s_10000"):
        assert len(measured_spreads(df, key)) == 1  # the timed row only
    assert small.drop(TIME_COLUMNS).notna().all() and small[TIME_COLUMNS].isna().all()
    solved = [r.reached.iteration for r in (solve(load_ppp("15-17"), neighborhood="hamming2", algorithm="tabu",
                                                  iterations=30, seed=seed, backend="cpu") for seed in (0, 1)) if r.reached]
    assert solved, "15-17 with Hamming 2: seed 0 reaches cost 0 at iteration 5 (measured)"
    assert small["successes"] == len(solved) and small["success_rate"] == len(solved) / 2
    assert small["iterations_to_success"] == np.median(solved) and small["s_to_success"] > 0
    assert (small["iterations_to_success_min"], small["iterations_to_success_max"]) == (min(solved), max(solved))
    assert len(measured_spreads(df, "s_to_success")) == (timed["successes"] > 0) + 1
    md, csv = ppp.write_report(df, tmp_path)
    text = md.read_text()
    assert "## Time per iteration" in text and "## Success rate" in text
    assert len(markdown_spreads(text)) >= 3  # ms/it., s / 10,000 it. and s to success at least
    assert "| hamming1 | 73-73 | 73 | " in text and "| hamming2 | 15-17 | cpu | 2 | 30 | 1 (50 %) |" in text
    assert pd.read_csv(csv).shape == df.shape


def test_the_default_sizes_are_the_2009_reports_sixteen_with_the_papers_times():
    assert ppp.SIZES["hamming1"] == ppp.SIZES["hamming2"] == PAPER_SIZES and len(PAPER_SIZES) == 16
    assert ppp.SIZES["hamming3"][-1] == "201-217"
    for nbh in ("hamming1", "hamming2"):
        assert set(ppp.PAPER_GTX280_S[nbh]) == set(PAPER_SIZES)  # Tables 2 and 3: every size
        assert set(ppp.PAPER_M2050_S[nbh]) == set(PAPER_2013_SIZES) < set(PAPER_SIZES)
    assert ppp.PAPER_GTX280_S["hamming2"]["1301-1317"] == (25026, 587)
