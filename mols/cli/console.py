"""What the `mols` command's modules share: the consoles, the Typer group, user errors turned into one line and
exit code 1, progress, and the options several commands take."""

from __future__ import annotations

import functools
import time
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TextColumn
from rich.table import Table
from typer.core import TyperGroup

from mols.backends.spec import DEVICES
from mols.errors import MolsError, OptionError
from mols.search.monitor import Monitor

console = Console(emoji=False)  # a ':name:' in a path or an instance name is text, not an emoji
err_console = Console(stderr=True, emoji=False)
# Typer may bundle its own click: take UsageError from the class Typer itself raises.
USAGE_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

Backend = Enum("Backend", {name: name for name in DEVICES}, type=str)
BackendOpt = Annotated[Backend, typer.Option("--backend", "-b", help="auto = gpu where CuPy finds a device.")]
SeedsOpt = Annotated[int, typer.Option(min=1, help="Runs per cell (seeds 0, 1, ...); times: median and range.")]
WHOLE_PROCESS = {"yes": False}  # set by main(): the command is the whole process (signals: StopSignals.ignore_after)
BENCH_OUTPUT = "Report folder (default: under bench-out/, which git ignores; name reports/... to refresh those)."


class MolsGroup(TyperGroup):
    """Our contract: every input error, a bad option included, exits with code 1 (click's usage
    errors exit with 2)."""

    def make_context(self, *args, **kwargs):
        with _usage_exits_1():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with _usage_exits_1():
            return super().invoke(ctx)


@contextmanager
def _usage_exits_1():
    try:
        yield
    except USAGE_ERROR as err:
        err.exit_code = 1
        raise


def new_app(**options) -> typer.Typer:
    return typer.Typer(cls=MolsGroup, rich_markup_mode="rich", no_args_is_help=True, add_completion=False,
                       context_settings={"help_option_names": ["-h", "--help"]}, **options)


def user_errors(fn):
    """Turn the mols error family into a one-line message and exit code 1, without a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MolsError as err:  # an option's message names its flag (--tenure), the library's its parameter
            message = err.flagged() if isinstance(err, OptionError) else str(err)
            err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)  # one line
            raise typer.Exit(1) from None
        except MemoryError:  # the sizes mols can foresee are refused earlier, with their estimate
            err_console.print("[bold red]error:[/] out of memory; choose a smaller instance or neighborhood",
                              highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None

    return wrapper


class LogProgress:
    """Progress as lines on stderr where the output is no terminal (a log, a batch job): the first
    iteration, then one line every `every` seconds, and the last (where `total` is known)."""

    def __init__(self, total: int | None, every: float = 10.0):
        self.total, self.every, self.last = total, every, None

    def __call__(self, done: int, size: int) -> None:
        now = time.monotonic()
        last = self.total is not None and done >= self.total
        if self.last is None or now - self.last >= self.every or last:
            of = "" if self.total is None else f"/{self.total}"
            err_console.print(f"mols: {done}{of} iterations, archive {size}", highlight=False)
            self.last = now


class Watch(Monitor):
    """`mols run`'s progress as one of the runner's monitors: after each step the iterations, and the run's archive,
    asked of the search at most twice a second (for PLS it merges the current start's archive with the run's)."""

    def __init__(self, show):
        self.show, self.size, self.last = show, 0, -1.0

    def on_step(self, search) -> None:
        now, done = time.monotonic(), search.iterations
        if now - self.last >= 0.5 or (search.total is not None and done >= search.total):
            self.size, self.last = search.archive_size(search.reported_size()), now
        self.show(done, self.size)


def progress_bar(*fields: str) -> Progress:
    """A transient progress bar on a terminal, none elsewhere; `fields` are more columns' templates."""
    return Progress(*Progress.get_default_columns(), *map(TextColumn, fields), console=console,
                    disable=not console.is_terminal, transient=True)


@contextmanager
def advancing(total: int | None, label: str = "benchmarking"):
    """A progress bar on a terminal (none elsewhere); the block gets its advance(row) callback."""
    with progress_bar() as progress:
        task = progress.add_task(label, total=total)
        yield lambda *done: progress.advance(task)


def kept(rows: list, write, advance):
    """A bench's on_row: keep the row in `rows`, write the report of them all again (write(rows)) and advance the
    progress. `mols` ends at once on Ctrl-C or a time limit's signal, so the report then holds what was measured."""
    def on_row(row) -> None:
        rows.append(row)
        write(rows)
        advance()

    return on_row


def show_table(title: str, columns: list[str], rows: list[list[str]]) -> None:
    table = Table(title=title)
    for col in columns:
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(*map(str, row))
    console.print(table)


def show_frame(frame, title: str) -> None:
    from mols.markdown import number_text

    show_table(title, [str(c) for c in frame.columns],
               [[number_text(v) for v in row] for row in frame.itertuples(index=False)])


def show_report(md: Path, *others: Path) -> None:
    """A benchmark's Markdown report, printed, and where it and the other files are."""
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {', '.join(map(str, (md, *others)))}", highlight=False)
