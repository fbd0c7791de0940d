"""Markdown output shared by reports and benchmarks (no heavy imports: it runs on the device too)."""

from __future__ import annotations


def markdown_table(rows: list[dict[str, str]]) -> str:
    """A GitHub Markdown table of rows that share their keys."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows]
    return "\n".join(lines)


def markdown_list(items: dict) -> str:
    """- key: value lines, e.g. the environment a measurement was made in."""
    return "\n".join(f"- {key}: {value}" for key, value in items.items())
