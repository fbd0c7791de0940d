"""`mols run --batch B`: B searches of one configuration, their merged front, a table of how each went."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import typer

from mols.cli.console import WHOLE_PROCESS, console, err_console, progress_bar, show_table
from mols.cli.options import EXIT_INTERRUPTED
from mols.errors import MolsError, reason
from mols.signals import StopSignals

CHILD = [sys.executable, "-m", "mols", "run"]  # how a search of its own process starts


def run_batch_command(config, size: int, folder: Path, overwrite: bool) -> None:
    """The searches (sharing each launch on the GPU where they can, else one process each: mols/batch.py)."""
    from mols.backends import BackendSpec
    from mols.batch import BATCH, MERGED, batch_error, run_batch, run_together
    from mols.results_folder import refuse_other_kind

    refuse_other_kind(folder, "batch")
    if (folder / BATCH).exists() and not overwrite:
        raise MolsError(f"{folder} holds a batch already (its {BATCH}); choose another --output, or --overwrite")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise MolsError(f"--output: cannot make {folder} ({reason(err)})") from None
    on_gpu = BackendSpec(config.backend).resolved().device == "gpu"
    parallel = 1 if on_gpu else min(size, config.threads or os.cpu_count() or 1)
    child = dataclasses.replace(config, threads=None if on_gpu else 1)
    seeds = f"seeds {config.seed}..{config.seed + size - 1}"
    with StopSignals(ignore_after=WHOLE_PROCESS["yes"], phase="setup") as stop, progress_bar() as progress:
        if made:  # a signal before the searches start leaves no empty folder behind
            stop.undo.append(lambda: folder.rmdir() if not any(folder.iterdir()) else None)
        task = progress.add_task("iterations", total=config.iterations and size * config.iterations)
        err_console.print(f"mols: {size} x {config.label} on {config.backend}, {seeds}; results go to {folder}",
                          highlight=False)
        try:
            record = run_together(config, size, folder, overwrite, stop,
                                  lambda done: progress.update(task, completed=done))
        except KeyboardInterrupt:
            err_console.print(f"interrupted by {stop.name} before the searches started: nothing written")
            raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None
        if record is None:
            err_console.print(f"mols: one search per process, {parallel} at a time", highlight=False)
            progress.update(task, total=size, description="searches")
            stop.phase = "search"
            record = run_batch(CHILD, child, size, folder, parallel, overwrite, stop,
                               lambda done: progress.update(task, completed=done))
    show_table("batch", ["seed", "status", "iterations", "archive", "seconds"],
               [[s["seed"], s["status"], s.get("iterations", ""), s.get("archive_size", ""),
                 f"{s['wall_seconds']:.2f}" if "wall_seconds" in s else ""] for s in record["searches"]])
    console.print(f"wrote {folder / MERGED} ({record['merged']['rows']} rows) and {folder / BATCH}", highlight=False)
    if stop.requested:
        raise typer.Exit(stop.exit_code)
    error = batch_error(record)
    if error:
        raise MolsError(f"some searches of the batch did not run to their end ({error}); see their folders and "
                        f"logs in {folder}")
