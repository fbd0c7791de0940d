"""Markdown output shared by reports and benchmarks (no heavy imports: it runs on the device too)."""

from __future__ import annotations

import math
import numbers


def markdown_table(rows: list[dict[str, str]]) -> str:
    """A GitHub Markdown table of rows that share their keys."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows]
    return "\n".join(lines)


def markdown_list(items: dict) -> str:
    """- key: value lines, e.g. the environment a measurement was made in."""
    return "\n".join(f"- {key}: {value}" for key, value in items.items())


def number_text(value, digits: int = 4) -> str:
    """A table cell: a float to `digits` significant digits, whole in full (a best cost of 224416), blank where NaN;
    anything else as str() writes it."""
    if not isinstance(value, numbers.Real) or isinstance(value, numbers.Integral):
        return str(value)
    value = float(value)
    if math.isnan(value):
        return ""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.{digits}g}"
