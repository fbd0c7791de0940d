"""The options of `mols run` (and so of `mols multistart`), made from the declarations of RunConfig and of the
registered algorithms' options (search/options.py), and how the parsed flags become RunConfig's keywords."""

from __future__ import annotations

import inspect
import typing
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from mols.algorithms.registry import REGISTRY
from mols.errors import flag
from mols.neighborhoods import NAMES
from mols.problems import PROBLEMS
from mols.runner.config import RunConfig
from mols.search.options import OUTPUT, Declaration, declared

NeighborhoodName = Enum("NeighborhoodName", {name: name for name in NAMES}, type=str)
ProblemName = Enum("ProblemName", {name: name for name in PROBLEMS}, type=str)
InstanceArg = Annotated[str, typer.Argument(help="Instance file, or a bundled name such as 020_10_01 or ta011.")]
RunInstanceArg = Annotated[str | None, typer.Argument(help="Instance file, or a bundled name such as 020_10_01 or "
                                                      "ta011 (none with --resume).", show_default=False)]
ProblemOpt = Annotated[ProblemName, typer.Option("--problem", "-p", help="Problem type.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Results folder (default: results/ and a "
                                                "name unique to the configuration, see the README).",
                                                rich_help_panel=OUTPUT)]
EXIT_INTERRUPTED = 130
DEFAULT_BY_PROBLEM = {algorithm: [name for name, entry in PROBLEMS.items() if entry.algorithm == algorithm]
                      for algorithm in dict.fromkeys(entry.algorithm for entry in PROBLEMS.values())}
ALGORITHM_HELP = "; ".join(f"{name}: {entry.help}" for name, entry in REGISTRY.items()) + ". Default: the problem's (" + (
    "; ".join(f"{algorithm} for {', '.join(names)}" for algorithm, names in DEFAULT_BY_PROBLEM.items())) + ")."
# The flags of `run` that are not a RunConfig's: where its results go, and how many searches
RUN_ONLY = [
    ("output", OutputOpt, None),
    ("overwrite", Annotated[bool, typer.Option("--overwrite", help="Replace the run already in the results folder.",
                                               rich_help_panel=OUTPUT)], False),
    ("batch", Annotated[int, typer.Option(min=1, rich_help_panel=OUTPUT, help="Run this many searches, seeds "
                                          "--seed, --seed + 1, ...: each writes OUTPUT/seed-S, and "
                                          "OUTPUT/merged_front.csv merges their fronts. On the GPU, tabu and ITS "
                                          "searches share each kernel launch; on the CPU they run side by side, one "
                                          "core each (--threads at a time).")], 1),
    ("checkpoint", Annotated[float | None, typer.Option(min=0.001, rich_help_panel=OUTPUT, metavar="SECONDS", help=(
        "Write the search's whole state into the results folder (checkpoint.npz) every SECONDS of search, and "
        "where a signal stops it; --resume goes on from there."))], None),
    ("resume", Annotated[Path | None, typer.Option(rich_help_panel=OUTPUT, metavar="FOLDER", help=(
        "Go on with the run checkpointed in FOLDER, to exactly the end it would have had; its options come from the "
        "checkpoint (give no instance; --backend, --threads, --block, --tune, --gpus may change)."))], None),
]


def declarations() -> dict[str, tuple[object, type, Declaration]]:
    """Every option of a run by name: (default, type, declaration), RunConfig's first, then each algorithm's."""
    found = {}
    for cls in (RunConfig, *(entry.options for entry in REGISTRY.values())):
        hints = typing.get_type_hints(cls)
        for f, how in declared(cls):
            found.setdefault(f.name, (f.default, hints[f.name], how))
    return found


def flag_type(name: str, hint, default, how: Declaration) -> tuple[object, object]:
    """The type typer parses a flag as, and its default: text where the option is parsed from text (checked by the
    library, choices or not), else a choice (an Enum; the algorithms registered now), else the option's own type."""
    choices = None if how.cli is not None else tuple(REGISTRY) if name == "algorithm" else how.choices
    if choices is None and how.cli is None:
        return hint, default
    kind = how.cli or Enum(name.title(), {choice: choice for choice in choices}, type=str)
    if default is None:
        return kind | None, None
    return kind, default if choices is None else kind(default)


def parameters() -> list[inspect.Parameter]:
    """The `run` command's parameters, in help panels (problem, search, budget, backend and GPU, ILS-3opt, output)."""
    params = [inspect.Parameter("instance", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=RunInstanceArg,
                                default=None)]
    for name, (default, hint, how) in declarations().items():
        kind, default = flag_type(name, hint, default, how)
        # a bool's flags are typer's own (--tune/--no-tune)
        names = [] if hint is bool else [flag(name), *([how.short] if how.short else [])]
        info = typer.Option(*names, help=ALGORITHM_HELP if name == "algorithm" else how.help, min=how.minimum,
                            rich_help_panel=how.panel)
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[kind, info],
                                        default=default))
    return params + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
                     for name, annotation, default in RUN_ONLY]


def config_fields(params: dict) -> dict:
    """RunConfig's keywords from the `run` command's parameters (typer's Enums, or click's plain values)."""
    fields = {"instance": params["instance"]}
    for name, (_, _, how) in declarations().items():
        value = getattr(params[name], "value", params[name])
        fields[name] = how.parse(value) if how.parse is not None and value is not None else value
    return fields


def given_options(params: dict) -> list[str]:
    """The names of the run's options given other values than their defaults."""
    return [name for name, (default, _, _) in declarations().items()
            if getattr(params[name], "value", params[name]) != default]


def budget_text(config) -> str:
    """The budgets given, e.g. '10000 iterations' or '2.5 s, 1000000 evaluations'."""
    given = [(config.iterations, "iterations"), (config.evaluations, "evaluations"),
             (None if config.time is None else f"{config.time:g}", "s")]
    return ", ".join(f"{value} {unit}" for value, unit in given if value is not None)


__all__ = ["EXIT_INTERRUPTED", "InstanceArg", "NeighborhoodName", "OutputOpt", "ProblemName", "ProblemOpt",
           "budget_text", "config_fields", "given_options", "parameters"]
