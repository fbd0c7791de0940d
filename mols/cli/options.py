"""The options `mols run` and `mols multistart` share, and how they become a RunConfig's fields."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from mols.backends.spec import ARCHIVES
from mols.errors import MolsError
from mols.neighborhoods import NAMES
from mols.problems import PROBLEMS
from mols.runner.config import ALGORITHMS, VARIANTS

NeighborhoodName = Enum("NeighborhoodName", {name: name for name in NAMES}, type=str)
ProblemName = Enum("ProblemName", {name: name for name in PROBLEMS}, type=str)
Algorithm = Enum("Algorithm", {name: name for name in ALGORITHMS}, type=str)
Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)
ArchiveWhere = Enum("ArchiveWhere", {name: name for name in ARCHIVES}, type=str)
InstanceArg = Annotated[str, typer.Argument(help="Instance file, or a bundled name such as 020_10_01 or ta011.")]
ProblemOpt = Annotated[ProblemName, typer.Option("--problem", "-p", help="Problem type.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Results folder (default: results/ and a "
                                                "name unique to the configuration, see the README).")]
EXIT_INTERRUPTED = 130

RUN_FIELDS = ("instance", "problem", "algorithm", "variant", "neighborhood", "backend", "iterations", "seed",
              "partitions", "tenure", "threads", "archive", "strength", "run_length", "evaluations", "restarts",
              "objectives", "strategy", "population", "merge", "block", "tune")


def config_fields(params: dict) -> dict:
    """RunConfig's keywords from the `run` command's parameters (typer's Enums, or click's plain values)."""
    from mols.runner.config import parse_target

    fields = {name: getattr(params[name], "value", params[name]) for name in RUN_FIELDS}
    return fields | {"time": params["time_budget"], "weights": parse_weights(params["weights"]),
                     "target": parse_target(params["target"])}


def parse_weights(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(tok) for tok in text.replace(",", " ").split())
    except ValueError:
        raise MolsError(f"--weights: expected numbers separated by commas, got {text!r}") from None


def budget_text(config) -> str:
    """The budgets given, e.g. '10000 iterations' or '2.5 s, 1000000 evaluations'."""
    given = [(config.iterations, "iterations"), (config.evaluations, "evaluations"),
             (None if config.time is None else f"{config.time:g}", "s")]
    return ", ".join(f"{value} {unit}" for value, unit in given if value is not None)
