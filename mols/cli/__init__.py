"""The `mols` command (Typer): each command's module, registered here; `main` serves the console script and
`python -m mols`. Command modules import the numerical libraries only when a command runs."""

from __future__ import annotations

from typing import Annotated

import typer

import mols
from mols.cli import bench_papers, bench_peers, bench_studies, bench_tools, multistart, run, tools
from mols.cli.console import WHOLE_PROCESS, console, new_app, user_errors

app = new_app()
bench_app = new_app(help="Benchmarks that reproduce the papers' tables on this machine.")
generate_app = new_app(help="Instances made from a seed, written to a file that a run can read again.")
app.add_typer(bench_app, name="bench")
app.add_typer(generate_app, name="generate")
app.command()(user_errors(run.run))
app.command()(user_errors(tools.evaluate))
app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(
    user_errors(multistart.multistart))
app.command()(user_errors(tools.instances))
app.command()(user_errors(tools.report))
generate_app.command("ppp")(user_errors(tools.generate_ppp))
generate_app.command("q3ap")(user_errors(tools.generate_q3ap))
for name, command in {**bench_papers.COMMANDS, **bench_studies.COMMANDS, **bench_tools.COMMANDS,
                      **bench_peers.COMMANDS}.items():
    bench_app.command(name)(user_errors(command))


def _version(value: bool):
    if value:
        console.print(f"mols {mols.__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")]
    = False,
):
    """mols: local search with whole neighborhoods evaluated at once on a GPU or on CPU cores."""


def main() -> None:
    """Console-script entry point: the process ends with the command, so `run` keeps its signal handlers
    to the end (in a test's CliRunner they are restored)."""
    WHOLE_PROCESS["yes"] = True
    app()


__all__ = ["app", "main"]
