"""`mols run`: one search (or `--batch` of them) into a results folder, with progress and a summary."""

from __future__ import annotations

import inspect
from contextlib import contextmanager
from pathlib import Path

import typer

from mols.cli.console import WHOLE_PROCESS, LogProgress, Watch, console, err_console, progress_bar, show_table
from mols.cli.options import EXIT_INTERRUPTED, budget_text, config_fields, parameters
from mols.errors import MolsError
from mols.signals import StopSignals


def run(**params):
    """Run a search and write its results folder: front.csv (the archive) and run.json (how it went).

    The folder is made and locked before the instance is read; SIGINT, SIGTERM and SIGHUP stop the search
    at its next iteration and write the archive found so far (exit code 128 + the signal's number)."""
    from mols.results import RESULTS, folder_name
    from mols.results_folder import checked_output, next_free
    from mols.runner import RunConfig

    output, overwrite, batch = params["output"], params["overwrite"], params["batch"]
    if params["resume"] is not None:
        return resume_run(params)
    if params["instance"] is None:
        raise MolsError("give the INSTANCE to search (or --resume FOLDER to go on with a checkpointed run)")
    if output is not None:
        checked_output(output)
    config = RunConfig(**config_fields(params))
    if batch > 1:
        if config.strategy is not None:
            raise MolsError("ILS-3opt (--strategy) runs one population per run; --batch does not apply")
        from mols.cli.batch import run_batch_command

        return run_batch_command(config, batch, output or next_free(RESULTS / f"{folder_name(config)}-batch{batch}"),
                                 overwrite, params["checkpoint"])
    folder = output or RESULTS / folder_name(config)
    if config.strategy is not None:
        return run_ils3opt_command(config, folder, overwrite, numbered=output is None, checkpoint=params["checkpoint"])
    run_one(config, folder, overwrite, numbered=output is None, checkpoint=params["checkpoint"])


def resume_run(params: dict) -> None:
    """mols run --resume FOLDER: the checkpointed run in FOLDER goes on, with its checkpoint's options."""
    from mols.cli.options import given_options
    from mols.errors import flag
    from mols.resume import OVERRIDES, read_checkpoint, resumed_config

    folder = params["resume"]
    if params["instance"] is not None or params["output"] is not None or params["batch"] != 1:
        raise MolsError("--resume goes on in FOLDER with the options of its checkpoint: give no INSTANCE, --output "
                        "or --batch")
    given = given_options(params)
    fixed = [name for name in given if name not in OVERRIDES]
    if fixed:
        raise MolsError(f"--resume takes the run's options from its checkpoint: {flag(fixed[0])} cannot change "
                        f"(only {', '.join(flag(name) for name in OVERRIDES)} can)")
    header, state = read_checkpoint(folder)
    config = resumed_config(header, **{name: getattr(params[name], "value", params[name]) for name in given})
    err_console.print(f"mols: resuming {config.label} on {config.instance} after {state['iterations']} iterations "
                      f"({state['profile']['elapsed']:.1f} s of search)", highlight=False)
    interval = params["checkpoint"] or header["interval"]
    if config.strategy is not None:
        return run_ils3opt_command(config, folder, True, checkpoint=interval, resume=(header, state))
    run_one(config, folder, True, checkpoint=interval, resume=(header, state))


run.__signature__ = inspect.Signature(parameters())  # the flags, from the options' declarations


@contextmanager
def results_folder(stop: StopSignals, folder: Path, overwrite: bool, numbered: bool):
    """The run's results folder, claimed (a default one may take the next free name, and says so), with a signal
    before the search (StopSignals' "setup" phase) ending the command as interrupted_before_search says."""
    from mols.results_folder import ResultsFolder

    with interrupted_before_search(stop), ResultsFolder(folder, overwrite, numbered) as out:
        stop.undo.append(out.abandon)
        if out.path != folder:
            err_console.print(f"mols: {folder} is taken (it holds a run, or one is using it): this one goes to "
                              f"{out.path}", highlight=False)
        yield out


def run_one(config, folder: Path, overwrite: bool, numbered: bool = False, checkpoint: float | None = None,
            resume: tuple[dict, dict] | None = None) -> None:
    """One search into its results folder, with a progress bar on a terminal (log lines elsewhere); `checkpoint`:
    seconds between checkpoints; `resume`: the (header, state) of the checkpoint it goes on from."""
    from mols.results import RunContext, write_run
    from mols.resume import finished
    from mols.runner import build_search

    with StopSignals(ignore_after=WHOLE_PROCESS["yes"]) as stop, results_folder(stop, folder, overwrite, numbered) \
            as out:
        with progress_bar("archive {task.fields[archive]}") as progress:
            task = progress.add_task(f"{config.label} on {config.backend}", total=None, archive=0)
            log = LogProgress(None)
            watch = Watch((lambda done, size: progress.update(task, completed=done, archive=size))
                          if console.is_terminal else log)
            search = build_search(config)
            progress.update(task, total=search.total)
            log.total = search.total
            err_console.print(f"mols: {config.label} on {config.backend}, {budget_text(config)}; results go to "
                              f"{out.path}", highlight=False)
            monitors = [watch, *checkpointing(config, search, out.path, checkpoint, resume)]
            stop.phase = "search"
            result = search.run(stop, monitors, None if resume is None else resume[1])
        stop.phase = "write"  # a signal now is only noted: the write finishes
        if result.status == "interrupted" and result.iterations == 0:
            err_console.print(f"interrupted by {stop.name} before the first iteration: nothing written")
            raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)
        write_run(out, config, result, RunContext.of(search))
        if result.status == "completed":
            finished(out.path)
    show_run(result, out.path, search.problem, config)
    if result.status == "interrupted":
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)
    if result.status == "failed":
        raise MolsError(f"the run failed; the archive found until then is in {out.path}\n{result.error}")


def checkpointing(config, search, folder: Path, interval: float | None, resume: tuple[dict, dict] | None) -> list:
    """The monitor that checkpoints the run every `interval` seconds (none without one), its instance first checked
    against the checkpoint it resumes from."""
    from mols.resume import check_instance, checkpoints

    if resume is not None:
        check_instance(resume[0], search.problem, folder)
    return [] if interval is None else [checkpoints(config, search, folder, interval)]


@contextmanager
def interrupted_before_search(stop: StopSignals):
    """A signal while the run is set up (its folder taken, the instance read, the kernels compiled: StopSignals'
    "setup" phase raises KeyboardInterrupt) ends the command with 128 + its number, the folder left as it was."""
    try:
        yield
    except KeyboardInterrupt:
        err_console.print(f"interrupted by {stop.name} before the search started: nothing written")
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None


def run_ils3opt_command(config, folder: Path, overwrite: bool, numbered: bool = False, checkpoint: float | None = None,
                       resume: tuple[dict, dict] | None = None) -> None:
    """mols run -p tsp -a ils --strategy S: one ILS-3opt population, its best tour in the results folder."""
    from mols.algorithms.ils3opt.search import config_result, config_run
    from mols.results import FRONT, MANIFEST, RunContext, write_run
    from mols.resume import finished

    with StopSignals(ignore_after=WHOLE_PROCESS["yes"]) as stop, results_folder(stop, folder, overwrite, numbered) \
            as out:
        folder = out.path
        run = config_run(config)
        merged = f", merged in islands of {run.merge}" if run.merge else ""
        err_console.print(f"mols: ILS-3opt {config.strategy}{merged}, population {run.population}, "
                          f"{budget_text(config)}; results go to {folder}", highlight=False)
        monitors = checkpointing(config, run, folder, checkpoint, resume)
        stop.phase = "search"
        result, ran_on = config_result(config, stop, monitors, None if resume is None else resume[1], run)
        context = RunContext.on(*ran_on)
        stop.phase = "write"
        write_run(out, config, result, context)
        if result.status == "completed":
            finished(folder)
    d = result.details
    gap = "" if d["optimum"] is None else f", {d['gap_percent']:.3f} % above the optimum {d['optimum']}"
    console.print(f"{result.status}, ended by {result.ended_by}: best tour {d['best_length']}{gap}; "
                  f"{result.iterations} ILS iterations in {result.wall_seconds:.2f} s on {context.backend}",
                  highlight=False)
    if result.ended_by == "iterations" and config.iterations is not None and result.iterations != config.iterations:
        err_console.print(f"note: -i {config.iterations} ran as {result.iterations} ILS iterations: each of the "
                          f"{d['population']} solutions makes whole iterations"
                          f"{' in whole merged rounds' if config.merge else ''} (run.json: details)", highlight=False)
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)
    if result.status == "interrupted":
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)


def best_text(best: float, objective: str, problem: str, instance: str) -> str:
    """A one-objective run's best value, with its gap to the instance's best-known value where mols knows one."""
    from mols.markdown import number_text
    from mols.problems import gap_percent, known_best

    known = known_best(problem, instance)
    gap = "" if known is None else f", {gap_percent(best, known):.3f} % above the best known {number_text(known, 6)}"
    return f"best {objective} {number_text(best, 6)}{gap}"


def show_run(result, folder: Path, problem, config) -> None:
    from mols.results import FRONT, MANIFEST

    status = f"{result.status} by {result.signal}" if result.signal else result.status
    ended = f", ended by {result.ended_by}" if result.ended_by else ""
    console.print(f"{status}{ended}: {result.iterations} neighborhood evaluations ({result.starts} starts), "
                  f"{len(result.archive)} solutions in the archive, {result.wall_seconds:.2f} s", highlight=False)
    if len(result.archive) and result.archive.F.shape[1] == 1:
        console.print(best_text(float(result.archive.F[:, 0].min()), problem.objectives[0], config.problem,
                                config.instance), highlight=False)
    if result.target is not None:
        targets = result.target if isinstance(result.target, (tuple, list)) else (result.target,)
        reached, value = result.reached, ",".join(f"{v:g}" for v in targets)
        console.print(f"target {value} " + (f"reached after {reached.iteration} iterations "
                      f"({reached.seconds:.3f} s)" if reached else "not reached"), highlight=False)
    show_table("time profile", ["part", "seconds", "%"],
               [[part, f"{cost['seconds']:.3f}", f"{cost['percent']:.1f}"] for part, cost in result.profile.items()])
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)
