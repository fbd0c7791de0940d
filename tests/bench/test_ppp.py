"""`mols bench ppp` on the CPU with tiny budgets: both parts' columns, complete rows, successes counted as
the public API's runs find them, the report files."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.bench import ppp
from mols.problems.ppp import load_ppp
from mols.runner import solve

TIME_COLUMNS = ["cpu1_iterations", "cpu1_s_per_iteration", "cpu1_s_10000", "paper_m2050_s"]
MEDIANS = ["median_iterations_to_success", "median_s_to_success"]  # none where no run succeeded
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
    assert timed["cpu1_s_10000"] == 10_000 * timed["cpu1_s_per_iteration"] > 0
    assert small.drop(TIME_COLUMNS).notna().all() and small[TIME_COLUMNS].isna().all()
    solved = [r.reached.iteration for r in (solve(load_ppp("15-17"), neighborhood="hamming2", algorithm="tabu",
                                                  iterations=30, seed=seed, backend="cpu") for seed in (0, 1)) if r.reached]
    assert solved, "15-17 with Hamming 2: seed 0 reaches cost 0 at iteration 5 (measured)"
    assert small["successes"] == len(solved) and small["success_rate"] == len(solved) / 2
    assert small["median_iterations_to_success"] == np.median(solved) and small["median_s_to_success"] > 0
    md, csv = ppp.write_report(df, tmp_path)
    text = md.read_text()
    assert "## Time per iteration" in text and "## Success rate" in text
    assert "| hamming1 | 73-73 | 73 | " in text and "| hamming2 | 15-17 | cpu | 2 | 30 | 1 (50 %) |" in text
    assert pd.read_csv(csv).shape == df.shape
