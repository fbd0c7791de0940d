"""The `mols` command: a thin Typer layer over the mols package (its bench commands: mols/bench/cli.py)."""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.progress import Progress, TextColumn

import mols
from mols.backends import ARCHIVES, BackendSpec
from mols.batch import BATCH, MERGED, batch_error, run_batch, run_together
from mols.bench.cli import bench_app
from mols.console import (
    BackendOpt,
    LogProgress,
    console,
    err_console,
    new_app,
    show_frame,
    show_table,
    user_errors,
)
from mols.errors import MolsError, reason
from mols.neighborhoods import NAMES
from mols.problems.io import read_text
from mols.results import FRONT, MANIFEST, RESULTS, ResultsFolder, RunContext, folder_name
from mols.search import ALGORITHMS, VARIANTS, RunConfig, build_search
from mols.search.budget import parse_target
from mols.search.tabu import DEFAULT_PARTITIONS
from mols.signals import StopSignals

app = new_app()
app.add_typer(bench_app, name="bench")

NeighborhoodName = Enum("NeighborhoodName", {name: name for name in NAMES}, type=str)
ProblemName = Enum("ProblemName", {name: name for name in mols.PROBLEMS}, type=str)
InstanceArg = Annotated[str, typer.Argument(help="Instance file, or a bundled name such as 020_10_01 or ta011.")]
ProblemOpt = Annotated[ProblemName, typer.Option("--problem", "-p", help="Problem type.")]


def _version(value: bool):
    if value:
        console.print(f"mols {mols.__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")] = False,
):
    """mols: local search with whole neighborhoods evaluated at once on a GPU or on CPU cores."""


def parse_solution(text: str | None, path: Path | None, problem: mols.Problem) -> np.ndarray:
    """The solution given by --solution or --solution-file (as front.csv writes it), or the encoding's
    initial one (the identity permutation)."""
    if text is not None and path is not None:
        raise MolsError("give --solution or --solution-file, not both")
    if path is not None:
        text = read_text(path)
    if text is None:
        return problem.encoding.initial()
    return problem.encoding.parse(text, "--solution")


@app.command()
@user_errors
def evaluate(
    instance: InstanceArg,
    problem: ProblemOpt = ProblemName.flowshop,
    solution: Annotated[str | None, typer.Option("--solution", "--perm", help="A solution as front.csv writes it, "
                                                 "e.g. the permutation '2 0 1 3' (default: the identity).")] = None,
    solution_file: Annotated[Path | None, typer.Option("--solution-file", "--perm-file",
                                                       help="A file holding the solution.")] = None,
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Evaluate this whole neighborhood instead of the solution alone.")] = None,
    backend: BackendOpt = "auto",
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="A sampled neighborhood (crowns) is drawn "
                                      "with the key (SEED, 1): the same seed, the same neighbors.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result as CSV here.")] = None,
):
    """Evaluate a solution of an instance, or its whole neighborhood, and print or write the result."""
    spec = mols.BackendSpec(backend.value).resolved()
    pb = mols.load_problem(problem.value, instance)
    x = parse_solution(solution, solution_file, pb)
    if neighborhood is None:
        F = pb.evaluate(x)[None, :]
        _show_or_write(_frame(pb, F, {"solution": [pb.encoding.format(x)]}), output,
                       f"{pb.name} instance {pb.instance_name} (size {pb.n})")
        return
    nbh = pb.neighborhood(neighborhood.value)
    evaluator = mols.prepare(pb, nbh, spec)
    key = np.array([seed, 1], dtype=np.uint64) if nbh.sampled else None
    evaluator.evaluate(x, key)  # warm-up: compilation stays out of the time below
    start = time.perf_counter()
    F = evaluator.evaluate(x, key)
    seconds = time.perf_counter() - start
    moves = nbh.moves(np.arange(len(F)), pb.n)
    names = "ijkl" if nbh.arity <= 4 else [f"m{q}" for q in range(nbh.arity)]
    frame = _frame(pb, F, {"id": np.arange(len(F)), **{names[q]: moves[:, q] for q in range(nbh.arity)}})
    title = (f"{nbh.name} neighborhood of {pb.instance_name}: {len(F)} neighbors in {seconds * 1e3:.3f} ms "
             f"on {evaluator.label} ({evaluator.device})")
    _show_or_write(frame, output, title, best_of=pb.objectives)


def _frame(pb, F: np.ndarray, columns: dict):
    import pandas as pd

    return pd.DataFrame({**columns, **{name: F[:, k] for k, name in enumerate(pb.objectives)}})


def _show_or_write(frame, output: Path | None, title: str, best_of=()) -> None:
    if output is not None:
        try:
            frame.to_csv(output, index=False)
        except OSError as err:
            raise MolsError(f"--output {output}: {reason(err)}") from None
        console.print(f"{title}\nwrote {len(frame)} rows to {output}", highlight=False)
        return
    shown = frame.loc[sorted({int(frame[name].idxmin()) for name in best_of})] if best_of else frame
    show_table(title + (" — best neighbor per objective" if best_of else ""), list(frame.columns),
               [list(row) for row in shown.itertuples(index=False)])


Algorithm = Enum("Algorithm", {name: name for name in ALGORITHMS}, type=str)
Variant = Enum("Variant", {name: name for name in VARIANTS}, type=str)
ArchiveWhere = Enum("ArchiveWhere", {name: name for name in ARCHIVES}, type=str)
EXIT_INTERRUPTED = 130
_WHOLE_PROCESS = {"yes": False}  # set by main(): the command is the whole process


@app.command()
@user_errors
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
                                               "(default: the problem size n; ITS: n / 2; Q3AP: a quarter of the neighborhood).")] = None,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU backend: cores to use (default: all).")] = None,
    archive: Annotated[ArchiveWhere | None, typer.Option(help="PLS: filter neighbors on the host (cpu) or the "
                                                         "device (gpu; the default on the gpu backend).")] = None,
    strength: Annotated[int | None, typer.Option(min=1, help="ITS, ILS: random changes per perturbation "
                                                 "(swaps, bit flips, new values; default: n / 5, at least 2; Q3AP: drawn in [2, n] at each).")] = None,
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
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Results folder (default: results/ and a "
                                                "name unique to the configuration, see the README).")] = None,
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
                                              "(default: the kernels' own; --tune: tuned once per device, see the README).")
                     ] = None,
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
    config = RunConfig(**config_fields(locals()))
    folder = output or RESULTS / folder_name(config)
    if config.strategy is not None:
        if batch > 1:
            raise MolsError("ILS-3opt (--strategy) runs one population per run; --batch does not apply")
        return run_ils3opt_command(config, folder, overwrite)
    if batch > 1:
        return run_batch_command(config, batch, output or RESULTS / f"{folder_name(config)}-batch{batch}", overwrite)
    with StopSignals(ignore_after=_WHOLE_PROCESS["yes"]) as stop, interrupted_before_search(stop), \
            ResultsFolder(folder, overwrite) as out:
        with Progress(*Progress.get_default_columns(), TextColumn("archive {task.fields[archive]}"),
                      console=console, disable=not console.is_terminal, transient=True) as progress:
            task = progress.add_task(f"{config.label} on {config.backend}", total=None, archive=0)
            log = LogProgress(None)
            show = (lambda done, size: progress.update(task, completed=done, archive=size)) if console.is_terminal \
                else log
            search = build_search(config, show)
            progress.update(task, total=search.total)
            log.total = search.total
            err_console.print(f"mols: {config.label} on {config.backend}, {budget_text(config)}; results go to "
                              f"{folder}", highlight=False)
            stop.phase = "search"
            result = search.run(stop)
        stop.phase = "write"  # a signal now is only noted: the write finishes
        out.write(config, result, RunContext.of(search))
    show_run(result, folder)
    if result.status == "interrupted":
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)
    if result.status == "failed":
        raise MolsError(f"the run failed; the archive found until then is in {folder}\n{result.error}")


@contextmanager
def interrupted_before_search(stop: StopSignals):
    """A signal while the run is set up (its folder taken, the instance read, the kernels compiled: StopSignals'
    "setup" phase raises KeyboardInterrupt) ends the command with 128 + its number, the folder left as it was."""
    try:
        yield
    except KeyboardInterrupt:
        err_console.print(f"interrupted by {stop.name} before the search started: nothing written")
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None


def run_ils3opt_command(config: RunConfig, folder: Path, overwrite: bool) -> None:
    """mols run -p tsp -a ils --strategy S: one ILS-3opt population, its best tour in the results folder."""
    from mols.search.ils3opt import config_result

    with StopSignals(ignore_after=_WHOLE_PROCESS["yes"]) as stop, interrupted_before_search(stop), \
            ResultsFolder(folder, overwrite) as out:
        merged = f", merged in islands of {config.merge}" if config.merge else ""
        err_console.print(f"mols: ILS-3opt {config.strategy}{merged}, population {config.population or 64}, "
                          f"{budget_text(config)}; results go to {folder}", highlight=False)
        stop.phase = "search"
        result, context = config_result(config, stop)
        stop.phase = "write"
        out.write(config, result, context)
    d = result.details
    gap = "" if d["optimum"] is None else f", {d['gap_percent']:.3f} % above the optimum {d['optimum']}"
    console.print(f"{result.status}, ended by {result.ended_by}: best tour {d['best_length']}{gap}; "
                  f"{result.iterations} ILS iterations in {result.wall_seconds:.2f} s on {context.backend}",
                  highlight=False)
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)
    if result.status == "interrupted":
        raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED)


def run_batch_command(config: RunConfig, size: int, folder: Path, overwrite: bool) -> None:
    """mols run --batch (mols/batch.py): the searches, their merged front, a table of how each went."""
    if (folder / BATCH).exists() and not overwrite:
        raise MolsError(f"{folder} holds a batch already (its {BATCH}); choose another --output, or --overwrite")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise MolsError(f"--output: cannot make {folder} ({reason(err)})") from None
    on_gpu = BackendSpec(config.backend).resolved().device == "gpu"
    parallel = 1 if on_gpu else min(size, config.threads or os.cpu_count() or 1)
    child = dataclasses.replace(config, threads=None if on_gpu else 1)
    seeds = f"seeds {config.seed}..{config.seed + size - 1}"
    with StopSignals(ignore_after=_WHOLE_PROCESS["yes"], phase="setup") as stop, \
            Progress(*Progress.get_default_columns(), console=console, disable=not console.is_terminal,
                     transient=True) as progress:
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
            record = run_batch([sys.executable, str(Path(__file__).resolve()), "run"], child, size, folder, parallel,
                               overwrite, stop, lambda done: progress.update(task, completed=done))
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


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
@user_errors
def multistart(
    ctx: typer.Context,
    searches: Annotated[int, typer.Option("--searches", "-k", min=1, help="Independent searches, seeds --seed, "
                                          "--seed + 1, ...")] = 20,
    workers: Annotated[int | None, typer.Option(min=1, help="Local cluster: workers (default: one per visible GPU, "
                                                "or per core on the cpu backend).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Run on this existing Dask cluster, e.g. tcp://HOST:8786 "
                                                  "(default: a local cluster; see the README).")] = None,
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
    task that fails, or whose worker dies, is tried once more and then reported; Ctrl-C stops the running
    searches at their next iteration (each writes its archive so far) and starts no other."""
    from mols.multistart.command import run_multistart_command

    fields = config_fields(run_parameters(ctx.args))
    run_multistart_command(fields, searches, workers, scheduler, per_task, output, overwrite, _WHOLE_PROCESS["yes"])


def run_parameters(args: list[str]) -> dict:
    """The `run` command's parameters from these arguments (its own parser: the same options, checks and help)."""
    import click

    command = typer.main.get_command(app).commands["run"]
    try:
        params = command.make_context("mols multistart", list(args)).params
    except click.exceptions.Exit:
        raise typer.Exit() from None
    except click.ClickException as err:
        raise MolsError(f"{err.format_message()} (the options of mols run)") from None
    if params["batch"] != 1:
        raise MolsError("--batch is mols run's: mols multistart runs --searches K")
    return params


RUN_FIELDS = ("instance", "problem", "algorithm", "variant", "neighborhood", "backend", "iterations", "seed",
              "partitions", "tenure", "threads", "archive", "strength", "run_length", "evaluations", "restarts",
              "objectives", "strategy", "population", "merge", "block", "tune")


def config_fields(params: dict) -> dict:
    """RunConfig's keywords from the `run` command's parameters (typer's Enums, or click's plain values)."""
    fields = {name: getattr(params[name], "value", params[name]) for name in RUN_FIELDS}
    return fields | {"time": params["time_budget"], "weights": parse_weights(params["weights"]),
                     "target": parse_target(params["target"])}


def budget_text(config: RunConfig) -> str:
    """The budgets given, e.g. '10000 iterations' or '2.5 s, 1000000 evaluations'."""
    given = [(config.iterations, "iterations"), (config.evaluations, "evaluations"),
             (None if config.time is None else f"{config.time:g}", "s")]
    return ", ".join(f"{value} {unit}" for value, unit in given if value is not None)


def parse_weights(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(tok) for tok in text.replace(",", " ").split())
    except ValueError:
        raise MolsError(f"--weights: expected numbers separated by commas, got {text!r}") from None


def show_run(result, folder: Path) -> None:
    status = f"{result.status} by {result.signal}" if result.signal else result.status
    ended = f", ended by {result.ended_by}" if result.ended_by else ""
    console.print(f"{status}{ended}: {result.iterations} neighborhood evaluations ({result.starts} starts), "
                  f"{len(result.archive)} solutions in the archive, {result.wall_seconds:.2f} s", highlight=False)
    if result.target is not None:
        reached, value = result.reached, ",".join(f"{v:g}" for v in np.atleast_1d(result.target))
        console.print(f"target {value} " + (f"reached after {reached.iteration} iterations "
                      f"({reached.seconds:.3f} s)" if reached else "not reached"), highlight=False)
    show_table("time profile", ["part", "seconds", "%"],
               [[part, f"{cost['seconds']:.3f}", f"{cost['percent']:.1f}"] for part, cost in result.profile.items()])
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)


@app.command()
@user_errors
def instances(problem: Annotated[ProblemName | None, typer.Option("--problem", "-p", help="Only this problem's.")] = None):
    """List the bundled instances of every problem (or of one): sizes, and what is published with them."""
    for name, entry in mols.PROBLEMS.items():
        if entry.instances is not None and (problem is None or problem.value == name):
            show_table(*entry.instances())


generate_app = new_app(help="Instances made from a seed, written to a file that a run can read again.")
app.add_typer(generate_app, name="generate")


@generate_app.command("ppp")
@user_errors
def generate_ppp(
    m: Annotated[int, typer.Argument(min=1, help="Rows of A (equations).")],
    n: Annotated[int, typer.Argument(min=1, help="Columns of A (bits of the secret).")],
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed of the draw (default: that of "
                                             "the bundled names, so 73 73 writes the instance 73-73).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The instance file to write.")] = Path("ppp.txt"),
):
    """A permuted perceptron instance with a planted solution (format: instances/ppp/SOURCE.md)."""
    from mols.problems.ppp import generate, write_ppp
    from mols.problems.ppp.instance import DEFAULT_SEED

    seed = DEFAULT_SEED if seed is None else seed
    instance = generate(m, n, seed)
    write_ppp(instance, output)
    console.print(f"wrote {instance.name} ({m} x {n}, seed {seed}, planted solution included) to {output}",
                  highlight=False)


@app.command()
@user_errors
def report(
    folders: Annotated[list[Path], typer.Argument(help="Results folders, or folders holding them (searched recursively).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Report folder.")] = RESULTS / "report",
):
    """Indicators (pymoo), tables and plots over results folders; prints the summary.

    Each instance's reference set is the non-dominated union of all its runs' fronts. Hypervolumes are
    compared pairwise over seeds (Mann-Whitney U); bi-objective instances get attainment surfaces and
    EAF differences (moocore). A folder that
    cannot be read is named on stderr and left out; the others are still reported (exit code 1)."""
    from mols.reporting import write_report

    result = write_report(folders, output)
    for note in result.skipped:
        err_console.print(f"note: {note}", highlight=False)
    show_frame(result.compact(), f"{len(result.runs)} run(s) over {len(result.references)} instance(s)")
    console.print(f"wrote {len(result.files)} files to {output}: report.md, runs.csv, summary.csv, plots",
                  highlight=False)
    if result.errors:
        raise MolsError("some results folders were left out:\n" + "\n".join(result.errors))


def main() -> None:
    """Console-script entry point: the process ends with the command, so `run` keeps its signal handlers
    to the end (in a test's CliRunner they are restored)."""
    _WHOLE_PROCESS["yes"] = True
    app()


if __name__ == "__main__":
    main()
