"""Options declared once, as dataclass fields: default, help, help panel, CLI form, checks and results-folder part;
the CLI's flags, the library's checks and the folder's name are all made from these declarations."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mols.errors import OptionError

DEFAULT_ITERATIONS = 10_000  # neighborhood evaluations, as in the flowshop paper
# The CLI's help panels
PROBLEM, SEARCH, BUDGET, OUTPUT, BACKEND, ILS3OPT = "Problem", "Search", "Budget", "Output", "Backend and GPU", "ILS-3opt"


@dataclass(frozen=True)
class Declaration:
    """How one option shows: `help` in the CLI's `panel`, with `short` (e.g. -i); `minimum` and `choices` are
    checked (by the CLI as typer's, by the library as OptionError); `cli`: the flag's type where it is text that
    `parse` reads (weights '0.5,0.5'); `folder`: its part of the results folder's name from (value, config), or
    None for none; `late`: that part comes after the target's; `search`: a keyword of the search's constructor;
    `open`: the library takes other values than the CLI's `choices` (your own problems and neighborhoods)."""

    help: str
    panel: str
    short: str | None = None
    minimum: int | None = None
    choices: tuple[str, ...] | None = None
    cli: type | None = None
    parse: Callable[[Any], Any] | None = None
    folder: Callable[[Any, Any], str | None] | None = None
    late: bool = False
    search: bool = True
    open: bool = False


def option(default, help: str, panel: str, **how) -> Any:
    """A dataclass field declaring an option (Declaration's keywords in `how`)."""
    return dataclasses.field(default=default, metadata={"option": Declaration(help, panel, **how)})


def keyed(key: str) -> Callable[[Any, Any], str | None]:
    """A results-folder part: the value after `key` (t50 for --tenure 50); none for None."""
    return lambda value, config: None if value is None else f"{key}{value}"


def declared(cls_or_object) -> list[tuple[dataclasses.Field, Declaration]]:
    """The declared options of a dataclass (or of its instance), in order."""
    return [(f, f.metadata["option"]) for f in dataclasses.fields(cls_or_object) if "option" in f.metadata]


def check(options) -> None:
    """OptionError naming the first declared option of `options` out of its minimum or choices."""
    for f, how in declared(options):
        value = getattr(options, f.name)
        if value is None:
            continue
        if how.minimum is not None and value < how.minimum:
            raise OptionError(f.name, f"must be at least {how.minimum}, got {value}")
        if how.choices is not None and not how.open and value not in how.choices:
            raise OptionError(f.name, f": unknown {f.name} {value!r}; choose one of {', '.join(how.choices)}")


@dataclass(frozen=True)
class AlgorithmOptions:
    """The options of one algorithm (a subclass per algorithm folder), checked where they are made."""

    def __post_init__(self):
        check(self)

    def arguments(self) -> dict:
        """The search constructor's keywords."""
        return {f.name: getattr(self, f.name) for f, how in declared(self) if how.search}


def default_iterations(iterations: int | None, time: float | None, evaluations: int | None) -> int | None:
    """The iterations budget: as given; else none where time or evaluations is given; else the default."""
    if iterations is not None or time is not None or evaluations is not None:
        return iterations
    return DEFAULT_ITERATIONS


def check_budget(iterations: int | None, time: float | None, evaluations: int | None) -> None:
    """OptionError naming the option of a value out of range."""
    if iterations is not None and iterations < 1:
        raise OptionError("iterations", f"must be at least 1, got {iterations}")
    if time is not None and not (math.isfinite(time) and time > 0):
        raise OptionError("time", f"must be a positive number of seconds, got {time}")
    if evaluations is not None and evaluations < 1:
        raise OptionError("evaluations", f"must be at least 1, got {evaluations}")


def parse_numbers(text: str, parameter: str) -> tuple[float, ...]:
    """Numbers written separated by commas (or spaces): an option's text (weights, target); OptionError naming
    `parameter` for anything else."""
    try:
        return tuple(float(tok) for tok in text.replace(",", " ").split())
    except ValueError:
        raise OptionError(parameter, f": expected numbers separated by commas, got {text!r}") from None
