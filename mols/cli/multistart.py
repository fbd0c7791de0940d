"""`mols multistart`: K searches through the driver, on Dask distributed (or a pool of local processes without the
Dask extra): the executor, the searches with progress, a table of tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mols.cli.console import WHOLE_PROCESS, console, err_console, new_app, progress_bar, show_table
from mols.cli.options import EXIT_INTERRUPTED, config_fields
from mols.cli.run import run
from mols.errors import MolsError
from mols.parallel.cluster import CONNECT_TIMEOUT
from mols.signals import StopSignals


def multistart(
    ctx: typer.Context,
    searches: Annotated[int, typer.Option("--searches", "-k", min=1, help="Independent searches, seeds --seed, "
                                          "--seed + 1, ...")] = 20,
    workers: Annotated[int | None, typer.Option(min=1, help="Local cluster: workers (default: one per visible GPU, "
                                                "or per core on the cpu backend).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Run on this existing Dask cluster, e.g. tcp://HOST:8786 "
                                                  "(default: a local cluster; see the README).")] = None,
    connect_timeout: Annotated[float, typer.Option(min=0.1, metavar="SECONDS", help="--scheduler: seconds, in all, "
                                                   "for the scheduler to answer and to show a worker; then an error."
                                                   )] = CONNECT_TIMEOUT,
    per_task: Annotated[int | None, typer.Option(min=1, help="Searches per Dask task (default: tabu and ITS "
                                                 "spread evenly over the workers, sharing each kernel launch on a "
                                                 "GPU; other searches one per task).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Folder of the searches' folders, the merged "
                                                "front and multistart.json (default: results/INSTANCE-multistart-"
                                                "ALGORITHM-kK-sSEED). Given again, the run resumes.")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Run every search again.")] = False,
):
    """K independent searches on Dask distributed, one worker per GPU (or per core), then their merged front.

    Give the instance and any option of `mols run` too, e.g.
    `mols multistart -k 20 tai100a -p qap -a its -i 100000`. Each search writes OUTPUT/seed-S as its task ends; a
    task that fails, or whose worker dies, is tried once more and then reported (its traceback, with Dask's
    warnings and errors, in OUTPUT/multistart.log); Ctrl-C stops the running searches at their next iteration
    (each writes its archive so far) and starts no other. Without the Dask extra (pip install 'mols[dask]') it runs
    on local worker processes, and --scheduler is refused."""
    params = run_parameters(ctx.args)
    run_multistart(config_fields(params), searches, workers, scheduler, per_task, output, overwrite, connect_timeout,
                   params["checkpoint"])


def run_parameters(args: list[str]) -> dict:
    """The `run` command's parameters from these arguments (its own parser: the same options, checks and help)."""
    exits, refusals = parse_failures()
    alone = new_app()
    alone.command()(run)
    try:
        params = typer.main.get_command(alone).make_context("mols multistart", list(args)).params
    except exits:
        raise typer.Exit() from None
    except refusals as err:
        raise MolsError(f"{err.format_message()} (the options of mols run)") from None
    if params["batch"] != 1:
        raise MolsError("--batch is mols run's: mols multistart runs --searches K")
    if params["resume"] is not None:
        raise MolsError("--resume is mols run's: mols multistart resumes when given its --output again")
    if params["instance"] is None:
        raise MolsError("give the INSTANCE to search")
    return params


def parse_failures() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """What a command's parser raises to end (--help) and to refuse its arguments: typer's own classes (typer 0.29
    and later carry their own click) and click's (earlier typer, or click installed beside it)."""
    exits, refusals = [typer.Exit], [typer.TyperException] if hasattr(typer, "TyperException") else []
    try:
        import click
    except ImportError:
        return tuple(exits), tuple(refusals)
    return (*exits, click.exceptions.Exit), (*refusals, click.ClickException)


def default_folder(fields: dict, searches: int) -> Path:
    """results/INSTANCE-multistart-ALGORITHM-kK-sSEED (other options into it are refused: record.previous_tasks)."""
    from mols.problems import default_algorithm
    from mols.results import RESULTS, safe_name

    stem = safe_name(Path(fields["instance"]).stem)
    algorithm = fields["algorithm"] or default_algorithm(fields["problem"])
    return RESULTS / f"{stem}-multistart-{algorithm}-k{searches}-s{fields['seed']}"


def run_multistart(fields: dict, searches: int, workers: int | None, scheduler: str | None, per_task: int | None,
                   output: Path | None, overwrite: bool, connect_timeout: float = CONNECT_TIMEOUT,
                   checkpoint: float | None = None) -> None:
    from mols.parallel.driver import Driver
    from mols.parallel.executors import executor_kind, open_executor
    from mols.parallel.logs import log_file
    from mols.parallel.record import MULTISTART, previous_tasks, unfinished
    from mols.results_folder import checked_output, refuse_other_kind

    kind = executor_kind("auto", scheduler)
    device = checked_here(fields, scheduler)
    folder = checked_output(output) if output is not None else default_folder(fields, searches)
    refuse_other_kind(folder, "multistart")  # before a cluster is made, as other options into the folder are:
    if not overwrite:
        previous_tasks(folder, fields)
    unit = "GPU" if device == "gpu" else "core"
    where = scheduler or (f"a local cluster, one worker per {unit}" if kind == "dask" else
                          f"local worker processes, one per {unit} (no Dask: pip install 'mols[dask]' for clusters)")
    seeds = list(range(fields["seed"], fields["seed"] + searches))
    with StopSignals(ignore_after=WHOLE_PROCESS["yes"], phase="setup") as stop:
        try:
            err_console.print(f"mols: starting {where}", highlight=False)
            with open_executor(kind, device, workers, scheduler, log_file(folder, MULTISTART),
                               connect_timeout) as executor:
                record = _run(Driver(executor, fields, seeds, folder, MULTISTART, per_task, resume=True,
                                     overwrite=overwrite, checkpoint=checkpoint), stop)
        except KeyboardInterrupt:
            err_console.print(f"interrupted by {stop.name} before the searches started: nothing written")
            raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None
    _show(record, folder, fields)
    if stop.requested:
        raise typer.Exit(stop.exit_code)
    error = unfinished(record)
    if error:
        raise MolsError(f"some searches did not run to their end ({error}); see {folder / MULTISTART}")


def checked_here(fields: dict, scheduler: str | None) -> str | None:
    """The instance read here, before any cluster, so that a bad file gets its reader's message with the user's
    path; for a local cluster the whole configuration too, and its device returned (cpu or gpu). An existing
    cluster's workers resolve the rest (`auto` among it) themselves: None."""
    from mols.problems import load_problem
    from mols.runner import RunConfig, run_problem

    if scheduler is not None:
        load_problem(fields["problem"], fields["instance"])
        return None
    config = RunConfig(**fields)
    run_problem(config)
    return config.backend


def _run(driver, stop) -> dict:
    from mols.cli.batch import show_failed

    checked = driver.check()
    workers = driver.executor.workers()
    err_console.print(f"mols: {len(driver.seeds)} searches on {len(workers)} worker(s) ({', '.join(workers)}), "
                      f"{checked['backend']}; results go to {driver.folder}", highlight=False)
    with progress_bar() as progress:
        task = progress.add_task("searches", total=len(driver.seeds))
        total = len(driver.seeds)
        stop.phase = "search"
        record = driver.run(stop, lambda done: progress.update(task, completed=done) if console.is_terminal
                            else err_console.print(f"mols: {done}/{total} searches done", highlight=False),
                            lambda failed, why, again: show_failed(failed, why, again, driver.log))
        stop.phase = "write"
    return record


def _show(record: dict, folder: Path, fields: dict) -> None:
    import pandas as pd

    from mols.cli.run import best_text
    from mols.parallel.record import MERGED, MULTISTART

    rows = []
    for task in record["tasks"]:
        last = task["attempts"][-1] if task["attempts"] else {}
        seeds = task["seeds"]
        rows.append([task["task"], f"{seeds[0]}..{seeds[-1]}" if len(seeds) > 1 else seeds[0], last.get("worker", ""),
                     last.get("gpu") or "", task["status"], len(task["attempts"]),
                     f"{last['seconds']:.2f}" if "seconds" in last else ""])
    show_table("tasks", ["task", "seeds", "worker", "GPU", "status", "attempts", "seconds"], rows)
    done = sum(s["status"] == "completed" for s in record["searches"])
    console.print(f"{done} of {len(record['searches'])} searches completed; wrote {folder / MERGED} "
                  f"({record['merged']['rows']} rows) and {folder / MULTISTART}", highlight=False)
    merged = pd.read_csv(folder / MERGED) if record["merged"]["rows"] else None
    objectives = [] if merged is None else list(merged.columns[:list(merged.columns).index("solution")])
    if len(objectives) == 1:  # one objective: the best of all the searches, as mols run ends
        console.print(best_text(float(merged[objectives[0]].min()), objectives[0], fields["problem"],
                                fields["instance"]), highlight=False)
