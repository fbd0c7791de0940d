"""Checks every bench test shares: a timed column's median and range (bench.common.Spread) in a table, and the
"median (low–high)" cells of a Markdown report, present and ordered."""

from __future__ import annotations

import re

import pandas as pd

_NUMBER = r"-?[\d.,]+(?:e[+-]?\d+)?"
_CELL = re.compile(rf"({_NUMBER}) \(({_NUMBER})–({_NUMBER})\)")


def measured_spreads(table, key: str) -> pd.DataFrame:
    """The rows of table (a DataFrame or records) where KEY was measured, as its three columns KEY, KEY_min and
    KEY_max; asserts they are there, measured together (all or none NaN) and min <= median <= max."""
    df = pd.DataFrame(table)
    columns = [key, f"{key}_min", f"{key}_max"]
    assert set(columns) <= set(df.columns), f"{key}: missing {sorted(set(columns) - set(df.columns))}"
    nan = df[columns].isna()
    assert (nan.all(axis=1) | ~nan.any(axis=1)).all(), f"{key}: a median without its range, or the reverse"
    got = df.loc[~nan.any(axis=1), columns]
    assert ((got[columns[1]] <= got[key]) & (got[key] <= got[columns[2]])).all(), f"{key}: min <= median <= max"
    return got


def markdown_spreads(text: str) -> list[tuple[float, float, float]]:
    """Every "median (low–high)" cell of a report, as numbers; asserts each is ordered."""
    cells = [tuple(float(number.replace(",", "")) for number in match) for match in _CELL.findall(text)]
    assert all(low <= median <= high for median, low, high in cells), cells
    return cells
