"""`mols run --batch B`: B searches of one configuration, their merged front, a table of how each went."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import typer

from mols.cli.console import WHOLE_PROCESS, console, err_console, progress_bar, show_table
from mols.cli.options import EXIT_INTERRUPTED
from mols.errors import MolsError, reason
from mols.signals import StopSignals


def run_batch_command(config, size: int, folder: Path, overwrite: bool, checkpoint: float | None = None) -> None:
    """The searches (sharing each launch on the GPU where they can, else through the driver, one search per
    worker process: mols/parallel/), each checkpointed in its folder every `checkpoint` seconds where given."""
    from mols.parallel.record import BATCH, MERGED, unfinished
    from mols.parallel.together import run_together
    from mols.results_folder import refuse_other_kind

    refuse_other_kind(folder, "batch")
    if (folder / BATCH).exists() and not overwrite:
        raise MolsError(f"{folder} holds a batch already (its {BATCH}); choose another --output, or --overwrite")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise MolsError(f"--output: cannot make {folder} ({reason(err)})") from None
    on_gpu = config.backend == "gpu"  # resolved where the configuration was made
    seeds = f"seeds {config.seed}..{config.seed + size - 1}"
    with StopSignals(ignore_after=WHOLE_PROCESS["yes"], phase="setup") as stop, progress_bar() as progress:
        if made:  # a signal before the searches start leaves no empty folder behind
            stop.undo.append(lambda: folder.rmdir() if not any(folder.iterdir()) else None)
        task = progress.add_task("iterations", total=config.iterations and size * config.iterations)
        err_console.print(f"mols: {size} x {config.label} on {config.backend}, {seeds}; results go to {folder}",
                          highlight=False)
        try:
            record = run_together(config, size, folder, overwrite, stop,
                                  lambda done: progress.update(task, completed=done), checkpoint)
            if record is None:
                progress.update(task, total=size, description="searches")
                record = run_apart(config, size, folder, on_gpu, overwrite, stop,
                                   lambda done: progress.update(task, completed=done), checkpoint)
        except KeyboardInterrupt:
            err_console.print(f"interrupted by {stop.name} before the searches started: nothing written")
            raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None
    show_table("batch", ["seed", "status", "iterations", "archive", "seconds"],
               [[s["seed"], s["status"], s.get("iterations", ""), s.get("archive_size", ""),
                 f"{s['wall_seconds']:.2f}" if "wall_seconds" in s else ""] for s in record["searches"]])
    console.print(f"wrote {folder / MERGED} ({record['merged']['rows']} rows) and {folder / BATCH}", highlight=False)
    if stop.requested:
        raise typer.Exit(stop.exit_code)
    error = unfinished(record)
    if error:
        raise MolsError(f"some searches of the batch did not run to their end ({error}); see their folders and "
                        f"logs in {folder}")


def run_apart(config, size: int, folder: Path, on_gpu: bool, overwrite: bool, stop, on_search,
              checkpoint: float | None = None) -> dict:
    """The searches through the driver (mols/parallel/driver.py), one per task, on as many local workers as
    --threads says (default: every core; one worker on the GPU), each search on one core; each search's progress
    in OUT/seed-S.log; returns batch.json's content."""
    from mols.parallel.driver import Driver
    from mols.parallel.executors import open_executor
    from mols.parallel.logs import log_file
    from mols.parallel.record import BATCH, refuse_taken
    from mols.runner import run_problem

    seeds = list(range(config.seed, config.seed + size))
    if not overwrite:
        refuse_taken(folder, seeds)
    child = dataclasses.replace(config, threads=None if on_gpu else 1)
    run_problem(child)  # the instance read here: a bad one gets `mols run`'s message, before any worker starts
    parallel = 1 if on_gpu else min(size, config.threads or os.cpu_count() or 1)
    with open_executor("auto", child.spec.device, parallel, log=log_file(folder, BATCH)) as executor:
        err_console.print(f"mols: one search per process, {parallel} at a time ({executor.mode})", highlight=False)
        driver = Driver(executor, child.record(), seeds, folder, BATCH, per_task=1, overwrite=True,
                        logs=True, checkpoint=checkpoint)
        stop.phase = "search"
        record = driver.run(stop, on_search, lambda task, why, again: show_failed(task, why, again, driver.log))
        stop.phase = "write"
    return record


def show_failed(task, why: str, again: bool, log: Path) -> None:
    """A failed attempt of a driver's task in one line (its traceback is in the log)."""
    seeds = f"seed{'s' if len(task.seeds) > 1 else ''} {', '.join(map(str, task.seeds))}"
    err_console.print(f"mols: task {task.index} ({seeds}) failed: {why}; "
                      f"{'trying it once more' if again else 'given up'} (details in {log})", highlight=False,
                      markup=False)
