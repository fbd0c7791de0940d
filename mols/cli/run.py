"""`mols run`: one search (or `--batch` of them) into a results folder, with progress and a summary."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from mols.cli.console import (
    WHOLE_PROCESS,
    BackendOpt,
    LogProgress,
    Watch,
    console,
    err_console,
    progress_bar,
    show_table,
)
from mols.cli.options import (
    EXIT_INTERRUPTED,
    Algorithm,
    ArchiveWhere,
    InstanceArg,
    NeighborhoodName,
    OutputOpt,
    ProblemName,
    ProblemOpt,
    Variant,
    budget_text,
    config_fields,
)
from mols.errors import MolsError
from mols.runner.config import DEFAULT_PARTITIONS
from mols.signals import StopSignals


def run(
    instance: InstanceArg,
    problem: ProblemOpt = ProblemName.flowshop,
    algorithm: Annotated[Algorithm, typer.Option("--algorithm", "-a", help="pls: Pareto local search (PLS-1); "
                                                 "tabu: aggregated tabu search; its: iterated tabu search; hc: hill "
                                                 "climbing (best improvement, restarts); ils: iterated local search.")
                         ] = Algorithm.pls,
    variant: Annotated[Variant, typer.Option(help="PLS: which neighbors enter the archive (dominating = PLS-√, "
                                             "nondominated = PLS-≠).")] = Variant.nondominated,
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Moves (default: the problem's usual one, insertion for the flowshop).")] = None,
    backend: BackendOpt = "auto",
    iterations: Annotated[int | None, typer.Option("--iterations", "-i", help="Budget: whole-neighborhood "
                                                   "evaluations (default: 10,000; none where --time or "
                                                   "--evaluations is given).")] = None,
    time_budget: Annotated[float | None, typer.Option("--time", help="Budget: seconds of search.")] = None,
    evaluations: Annotated[int | None, typer.Option(help="Budget: neighbors evaluated (iterations x neighbors "
                                                    "per iteration).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every random choice.")] = 0,
    weights: Annotated[str | None, typer.Option(help="Tabu, ITS, HC, ILS: one weight vector, e.g. '0.5,0.3,0.2' "
                                                "(default: tabu a lattice of vectors, see --partitions; the others "
                                                "equal weights).")] = None,
    partitions: Annotated[int, typer.Option(min=1, help="Tabu: weight vectors i/P summing to 1.")] = DEFAULT_PARTITIONS,
    tenure: Annotated[int | None, typer.Option(min=0, help="Tabu: iterations a move's inverse stays tabu "
                                               "(default: the problem size n; ITS: n / 2; Q3AP: a quarter of the "
                                               "neighborhood).")] = None,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU backend: cores to use (default: all).")] = None,
    archive: Annotated[ArchiveWhere | None, typer.Option(help="PLS: filter neighbors on the host (cpu) or the "
                                                         "device (gpu; the default on the gpu backend).")] = None,
    strength: Annotated[int | None, typer.Option(min=1, help="ITS, ILS: random changes per perturbation "
                                                 "(swaps, bit flips, new values; default: n / 5, at least 2; Q3AP: "
                                                 "drawn in [2, n] at each).")] = None,
    target: Annotated[str | None, typer.Option(help="Stop when the archive holds a solution at least this good in "
                                               "every objective: one value per objective, e.g. '60,300,2' (default: "
                                               "the problem's; the PPP stops at 0, a solution).")] = None,
    restarts: Annotated[int | None, typer.Option(help="PLS: random restarts, then stop when the archive is fully "
                                                 "explored (0: PLS-1's natural end; default: restart until a "
                                                 "budget ends the run).")] = None,
    run_length: Annotated[int | None, typer.Option(min=1, help="ITS: iterations per tabu run (default: 10 n).")] = None,
    objectives: Annotated[str | None, typer.Option(help="Optimise only these of the problem's objectives, in this "
                                                   "order, e.g. 'makespan,tardiness' (default: all). front.csv still "
                                                   "lists every objective; run.json names those optimised.")] = None,
    output: OutputOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the run already in the results folder.")
                         ] = False,
    strategy: Annotated[str | None, typer.Option(help="-p tsp -a ils: ILS-3opt (Delévacq et al. 2012) run by "
                                                 "cpu (Numba, --threads cores), fi-thread, fi-block, "
                                                 "fi-block-shared or rkbi (GPU), or cpu-rkbi (rkbi's Numba twin). "
                                                 "-i is the total of ILS iterations, split over the population.")
                         ] = None,
    population: Annotated[int | None, typer.Option(help="ILS-3opt: solutions improved side by side (the "
                                                   "paper's nbsol: 1, 8, 64, 512, 2048; default 64).")] = None,
    merge: Annotated[int, typer.Option(min=0, help="ILS-3opt: merged rounds in islands of this many solutions (a "
                                       "divisor of --population): an island's solutions start every round of 32 "
                                       "iterations from its tour, and their improvements are merged into it. 0: "
                                       "independent solutions, the paper's. At least 200 cities.")] = 0,
    block: Annotated[int | None, typer.Option(help="GPU backend: threads per block of the kernels, a multiple of 32 "
                                              "(default: the kernels' own; --tune: tuned once per device, see the "
                                              "README).")] = None,
    tune: Annotated[bool, typer.Option(help="GPU backend without --block: tune the launch (threads per block and per "
                                       "move) the first time and remember it, instead of the kernels' default "
                                       "launch.")] = False,
    batch: Annotated[int, typer.Option(min=1, help="Run this many searches, seeds --seed, --seed + 1, ...: each "
                                       "writes OUTPUT/seed-S, and OUTPUT/merged_front.csv merges their fronts. On "
                                       "the GPU, tabu and ITS searches share each kernel launch; on the CPU they run "
                                       "side by side, one core each (--threads at a time).")] = 1,
):
    """Run a search and write its results folder: front.csv (the archive) and run.json (how it went).

    The folder is made and locked before the instance is read; SIGINT, SIGTERM and SIGHUP stop the search
    at its next iteration and write the archive found so far (exit code 128 + the signal's number)."""
    from mols.results import RESULTS, folder_name
    from mols.results_folder import checked_output, next_free
    from mols.runner import RunConfig

    if output is not None:
        checked_output(output)
    config = RunConfig(**config_fields(locals()))
    if batch > 1:
        if config.strategy is not None:
            raise MolsError("ILS-3opt (--strategy) runs one population per run; --batch does not apply")
        from mols.cli.batch import run_batch_command

        return run_batch_command(config, batch, output or next_free(RESULTS / f"{folder_name(config)}-batch{batch}"),
                                 overwrite)
    folder = output or RESULTS / folder_name(config)
    if config.strategy is not None:
        return run_ils3opt_command(config, folder, overwrite, numbered=output is None)
    run_one(config, folder, overwrite, numbered=output is None)


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


def run_one(config, folder: Path, overwrite: bool, numbered: bool = False) -> None:
    """One search into its results folder, with a progress bar on a terminal (log lines elsewhere)."""
    from mols.results import RunContext, write_run
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
            stop.phase = "search"
            result = search.run(stop, [watch])
        stop.phase = "write"  # a signal now is only noted: the write finishes
        if result.status == "interrupted" and result.iterations == 0:
            err_console.print(f"interrupted by {stop.name} before the first iteration: nothing written")
            raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)
        write_run(out, config, result, RunContext.of(search))
    show_run(result, out.path)
    if result.status == "interrupted":
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)
    if result.status == "failed":
        raise MolsError(f"the run failed; the archive found until then is in {out.path}\n{result.error}")


@contextmanager
def interrupted_before_search(stop: StopSignals):
    """A signal while the run is set up (its folder taken, the instance read, the kernels compiled: StopSignals'
    "setup" phase raises KeyboardInterrupt) ends the command with 128 + its number, the folder left as it was."""
    try:
        yield
    except KeyboardInterrupt:
        err_console.print(f"interrupted by {stop.name} before the search started: nothing written")
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None


def run_ils3opt_command(config, folder: Path, overwrite: bool, numbered: bool = False) -> None:
    """mols run -p tsp -a ils --strategy S: one ILS-3opt population, its best tour in the results folder."""
    from mols.results import FRONT, MANIFEST, write_run
    from mols.algorithms.ils3opt.search import config_result

    with StopSignals(ignore_after=WHOLE_PROCESS["yes"]) as stop, results_folder(stop, folder, overwrite, numbered) \
            as out:
        folder = out.path
        merged = f", merged in islands of {config.merge}" if config.merge else ""
        err_console.print(f"mols: ILS-3opt {config.strategy}{merged}, population {config.population or 64}, "
                          f"{budget_text(config)}; results go to {folder}", highlight=False)
        stop.phase = "search"
        result, context = config_result(config, stop)
        stop.phase = "write"
        write_run(out, config, result, context)
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


def show_run(result, folder: Path) -> None:
    from mols.results import FRONT, MANIFEST

    status = f"{result.status} by {result.signal}" if result.signal else result.status
    ended = f", ended by {result.ended_by}" if result.ended_by else ""
    console.print(f"{status}{ended}: {result.iterations} neighborhood evaluations ({result.starts} starts), "
                  f"{len(result.archive)} solutions in the archive, {result.wall_seconds:.2f} s", highlight=False)
    if result.target is not None:
        targets = result.target if isinstance(result.target, (tuple, list)) else (result.target,)
        reached, value = result.reached, ",".join(f"{v:g}" for v in targets)
        console.print(f"target {value} " + (f"reached after {reached.iteration} iterations "
                      f"({reached.seconds:.3f} s)" if reached else "not reached"), highlight=False)
    show_table("time profile", ["part", "seconds", "%"],
               [[part, f"{cost['seconds']:.3f}", f"{cost['percent']:.1f}"] for part, cost in result.profile.items()])
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)
