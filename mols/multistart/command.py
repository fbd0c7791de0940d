"""`mols multistart`: the command's work behind cli.py's options: the cluster, the searches with a progress bar
(or log lines), and a table of the tasks."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import Progress

from mols.batch import MERGED, batch_error
from mols.console import console, err_console, show_table
from mols.errors import MolsError
from mols.multistart.cluster import open_client
from mols.multistart.driver import MULTISTART, Multistart, previous_tasks
from mols.results import RESULTS, _safe
from mols.search import RunConfig
from mols.signals import StopSignals


def default_folder(fields: dict, searches: int) -> Path:
    """results/INSTANCE-multistart-ALGORITHM-kK-sSEED (other options into it are refused: driver.previous_tasks)."""
    stem = _safe(Path(fields["instance"]).stem)
    return RESULTS / f"{stem}-multistart-{fields['algorithm']}-k{searches}-s{fields['seed']}"


def run_multistart_command(fields: dict, searches: int, workers: int | None, scheduler: str | None,
                           per_task: int | None, output: Path | None, overwrite: bool, whole_process: bool) -> None:
    device = None
    if scheduler is None:  # a local cluster: the options are checked here, before it is made
        device = RunConfig(**fields).backend
    folder = output or default_folder(fields, searches)
    previous_tasks(folder, fields, overwrite)  # other options into the folder: refused before a cluster is made
    where = scheduler or f"a local cluster, one worker per {'GPU' if device == 'gpu' else 'core'}"
    with StopSignals(ignore_after=whole_process, phase="setup") as stop:
        try:
            err_console.print(f"mols: starting {where}", highlight=False)
            with open_client(scheduler, device, workers) as client:
                record = _run(Multistart(client, fields, searches, folder, per_task, overwrite), stop)
        except KeyboardInterrupt:
            err_console.print(f"interrupted by {stop.name} before the searches started: nothing written")
            raise typer.Exit(stop.exit_code or 130) from None
    _show(record, folder)
    if stop.requested:
        raise typer.Exit(stop.exit_code)
    error = batch_error(record)
    if error:
        raise MolsError(f"some searches did not run to their end ({error}); see {folder / MULTISTART}")


def _run(multistart: Multistart, stop) -> dict:
    checked = multistart.check()
    workers = multistart.client.scheduler_info()["workers"]
    err_console.print(f"mols: {len(multistart.seeds)} searches on {len(workers)} worker(s) "
                      f"({', '.join(sorted(str(w.get('name')) for w in workers.values()))}), {checked['backend']}; "
                      f"results go to {multistart.folder}", highlight=False)
    with Progress(*Progress.get_default_columns(), console=console, disable=not console.is_terminal,
                  transient=True) as progress:
        task = progress.add_task("searches", total=len(multistart.seeds))
        total = len(multistart.seeds)
        stop.phase = "search"
        record = multistart.run(stop, lambda done: progress.update(task, completed=done) if console.is_terminal
                                else err_console.print(f"mols: {done}/{total} searches done", highlight=False))
        stop.phase = "write"
    return record


def _show(record: dict, folder: Path) -> None:
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
