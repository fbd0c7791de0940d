"""`mols bench archive` on the CPU with tiny cases: each library's time (median and range over its calls), the host
filter agreeing with moocore, the report files."""

from __future__ import annotations

import pandas as pd

from mols.bench import archive
from tests.bench.spreads import markdown_spreads, measured_spreads


def test_cases_time_each_library_and_agree(tmp_path):
    df = archive.run(ks=[2, 3], ns=[200], sizes=[10], instances=[], repeats=4, target=None)
    assert list(df["k"]) == [2, 3] and (df["disagree"] == "").all()
    libraries = [lib for lib in archive.LIBS if f"{lib}_s" in df]
    assert {"moocore", "pymoo", "host"} <= set(libraries)
    for lib in libraries:
        assert (measured_spreads(df, f"{lib}_s")[f"{lib}_s_min"] > 0).all()
    md, csv = archive.write_report(df, tmp_path)
    assert len(measured_spreads(pd.read_csv(csv), "host_s")) == 2
    assert len(markdown_spreads(md.read_text())) >= 2 * len(libraries)
