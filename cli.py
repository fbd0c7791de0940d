"""The `mols` command: a thin Typer layer over the mols package."""

from __future__ import annotations

import functools
import time
from enum import Enum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TextColumn
from rich.table import Table

import mols
from mols.bench.common import BENCH_OUT, FSP_SIZES, choose
from mols.errors import MolsError, reason
from mols.problems.io import excerpt, read_text
from mols.results import FRONT, MANIFEST, RESULTS, ResultsFolder, RunContext, folder_name
from mols.search import ALGORITHMS, ARCHIVES, DEFAULT_ITERATIONS, VARIANTS, RunConfig, build_search
from mols.signals import StopSignals
from mols.search.tabu import DEFAULT_PARTITIONS

# Our contract: every input error, a bad option included, exits with code 1 (click's default is 2).
# Typer may bundle its own click, so take UsageError from the class Typer itself raises.
next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError").exit_code = 1

app = typer.Typer(rich_markup_mode="rich", context_settings={"help_option_names": ["-h", "--help"]},
                  no_args_is_help=True, add_completion=False)
bench_app = typer.Typer(help="Benchmarks that reproduce the papers' tables on this machine.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
console = Console(emoji=False)  # a ':name:' in a path or an instance name is text, not an emoji
err_console = Console(stderr=True, emoji=False)

Backend = Enum("Backend", {name: name for name in mols.BACKENDS}, type=str)
NeighborhoodName = Enum("NeighborhoodName", {name: name for name in mols.NEIGHBORHOODS}, type=str)
ProblemName = Enum("ProblemName", {name: name for name in mols.PROBLEMS}, type=str)

InstanceArg = Annotated[str, typer.Argument(help="Instance file, or a bundled name such as 020_10_01 or ta011.")]
ProblemOpt = Annotated[ProblemName, typer.Option("--problem", "-p", help="Problem type.")]
BackendOpt = Annotated[Backend, typer.Option("--backend", "-b", help="auto = gpu where CuPy finds a device.")]
SeedsOpt = Annotated[int, typer.Option(min=1, help="Runs per cell (seeds 0, 1, ...); times are medians.")]
BenchBackendsOpt = Annotated[str | None, typer.Option(help="Comma-separated: cpu1 (1 core), cpu (all cores), gpu "
                                                      "(default: all three where there is a GPU).")]
BENCH_OUTPUT = "Report folder (default: under bench-out/, which git ignores; name reports/... to refresh those)."
TabuIterationsOpt = Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu iterations, as in the paper.")]


def user_errors(fn):
    """Turn the mols error family into a one-line message and exit code 1, without a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MolsError as err:
            err_console.print(f"[bold red]error:[/] {escape(str(err))}", highlight=False)
            raise typer.Exit(1) from None
        except MemoryError:  # the sizes mols can foresee are refused earlier, with their estimate
            err_console.print("[bold red]error:[/] out of memory; choose a smaller instance or neighborhood",
                              highlight=False)
            raise typer.Exit(1) from None

    return wrapper


def _version(value: bool):
    if value:
        console.print(f"mols {mols.__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")] = False,
):
    """mols: local search with whole neighborhoods evaluated at once on a GPU or on CPU cores."""


def parse_permutation(text: str | None, path: Path | None, n: int) -> np.ndarray:
    """The permutation given by --perm or --perm-file, or the identity."""
    if text is not None and path is not None:
        raise MolsError("give --perm or --perm-file, not both")
    if path is not None:
        text = read_text(path)
    if text is None:
        return np.arange(n, dtype=np.int32)
    try:
        values = [int(tok) for tok in text.replace(",", " ").split()]
    except ValueError:
        raise MolsError(f"--perm: expected integers separated by spaces or commas, got {excerpt(text)}") from None
    return mols.check_permutation(values, n, what="--perm")


@app.command()
@user_errors
def evaluate(
    instance: InstanceArg,
    problem: ProblemOpt = ProblemName.flowshop,
    perm: Annotated[str | None, typer.Option(help="Permutation, e.g. '2 0 1 3' (default: identity).")] = None,
    perm_file: Annotated[Path | None, typer.Option(help="File holding the permutation.")] = None,
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Evaluate this whole neighborhood instead of the permutation alone.")] = None,
    backend: BackendOpt = Backend.auto,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result as CSV here.")] = None,
):
    """Evaluate a permutation of an instance, or its whole neighborhood, and print or write the result."""
    backend_name = mols.resolve_backend(backend.value)
    pb = mols.load_problem(problem.value, instance)
    x = parse_permutation(perm, perm_file, pb.n)
    if neighborhood is None:
        F = pb.evaluate(x)[None, :]
        table = {"permutation": [" ".join(map(str, x))]}
        shape = f"{pb.n} jobs x {pb.m} machines" if hasattr(pb, "m") else f"{pb.n} cities"
        _show_or_write(_frame(pb, F, table), output, f"{pb.instance_name}: {shape}")
        return
    nbh = mols.get_neighborhood(neighborhood.value)
    evaluator = mols.prepare(pb, nbh, backend_name)
    evaluator.evaluate(x)  # warm-up: compilation stays out of the time below
    start = time.perf_counter()
    F = evaluator.evaluate(x)
    seconds = time.perf_counter() - start
    moves = nbh.moves(np.arange(len(F)), pb.n)
    frame = _frame(pb, F, {"id": np.arange(len(F)), "i": moves[:, 0], "j": moves[:, 1]})
    title = (f"{nbh.name} neighborhood of {pb.instance.name}: {len(F)} neighbors in {seconds * 1e3:.3f} ms "
             f"on {evaluator.backend} ({evaluator.device})")
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
    table = Table(title=title + (" — best neighbor per objective" if best_of else ""))
    for col in frame.columns:
        table.add_column(col, justify="right")
    for row in shown.itertuples(index=False):
        table.add_row(*map(str, row))
    console.print(table)


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
                                                 "tabu: aggregated tabu search; its: iterated tabu search.")
                         ] = Algorithm.pls,
    variant: Annotated[Variant, typer.Option(help="PLS: which neighbors enter the archive (dominating = PLS-√, "
                                             "nondominated = PLS-≠).")] = Variant.nondominated,
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Moves (default: the problem's usual one, insertion for the flowshop).")] = None,
    backend: BackendOpt = Backend.auto,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1,
                                            help="Budget: whole-neighborhood evaluations.")] = DEFAULT_ITERATIONS,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of every random choice.")] = 0,
    weights: Annotated[str | None, typer.Option(help="Tabu: one weight vector, e.g. '0.5,0.3,0.2' "
                                                "(default: a lattice of vectors, see --partitions).")] = None,
    partitions: Annotated[int, typer.Option(min=1, help="Tabu: weight vectors i/P summing to 1.")] = DEFAULT_PARTITIONS,
    tenure: Annotated[int | None, typer.Option(min=0, help="Tabu: iterations a move's inverse stays tabu "
                                               "(default: the problem size n; ITS: n / 2).")] = None,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU backend: cores to use (default: all).")] = None,
    archive: Annotated[ArchiveWhere | None, typer.Option(help="PLS: filter neighbors on the host (cpu) or the "
                                                         "device (gpu; the default on the gpu backend).")] = None,
    strength: Annotated[int | None, typer.Option(min=1, help="ITS: random swaps per perturbation "
                                                 "(default: n / 5, at least 2).")] = None,
    run_length: Annotated[int | None, typer.Option(min=1, help="ITS: iterations per tabu run (default: 10 n).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Results folder (default: results/ and a "
                                                "name unique to the configuration, see the README).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the run already in the results folder.")
                         ] = False,
):
    """Run a search and write its results folder: front.csv (the archive) and run.json (how it went).

    The folder is made and locked before the instance is read; SIGINT, SIGTERM and SIGHUP stop the search
    at its next iteration and write the archive found so far (exit code 128 + the signal's number)."""
    config = RunConfig(instance=instance, problem=problem.value, algorithm=algorithm.value, variant=variant.value,
                       neighborhood=neighborhood and neighborhood.value, backend=mols.resolve_backend(backend.value),
                       iterations=iterations, seed=seed, weights=parse_weights(weights), partitions=partitions,
                       tenure=tenure, threads=threads, archive=archive.value if archive else None,
                       strength=strength, run_length=run_length)
    folder = output or RESULTS / folder_name(config)
    with StopSignals(ignore_after=_WHOLE_PROCESS["yes"]) as stop, ResultsFolder(folder, overwrite) as out:
        with Progress(*Progress.get_default_columns(), TextColumn("archive {task.fields[archive]}"),
                      console=console, disable=not console.is_terminal, transient=True) as progress:
            task = progress.add_task(f"{config.label} on {config.backend}", total=iterations, archive=0)
            show = (lambda done, size: progress.update(task, completed=done, archive=size)) if console.is_terminal \
                else LogProgress(iterations)
            try:
                search = build_search(config, show)
            except KeyboardInterrupt:
                err_console.print(f"interrupted by {stop.name} before the search started: nothing written")
                raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None
            err_console.print(f"mols: {config.label} on {config.backend}, {iterations} iterations; results go to "
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


class LogProgress:
    """Progress as lines on stderr where the output is no terminal (a log, a batch job): the first
    iteration, then one line every `every` seconds, and the last."""

    def __init__(self, total: int, every: float = 10.0):
        self.total, self.every, self.last = total, every, None

    def __call__(self, done: int, size: int) -> None:
        now = time.monotonic()
        if self.last is None or now - self.last >= self.every or done >= self.total:
            err_console.print(f"mols: {done}/{self.total} iterations, archive {size}", highlight=False)
            self.last = now


def parse_weights(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(tok) for tok in text.replace(",", " ").split())
    except ValueError:
        raise MolsError(f"--weights: expected numbers separated by commas, got {text!r}") from None


def show_run(result, folder: Path) -> None:
    status = f"{result.status} by {result.signal}" if result.signal else result.status
    console.print(f"{status}: {result.iterations} neighborhood evaluations ({result.starts} starts), "
                  f"{len(result.archive)} solutions in the archive, {result.wall_seconds:.2f} s", highlight=False)
    table = Table(title="time profile")
    for col in ("part", "seconds", "%"):
        table.add_column(col, justify="right")
    for part, cost in result.profile.items():
        table.add_row(part, f"{cost['seconds']:.3f}", f"{cost['percent']:.1f}")
    console.print(table)
    console.print(f"wrote {folder / FRONT} and {folder / MANIFEST}", highlight=False)


@app.command()
def instances():
    """List the bundled instances (their sizes and where their due dates come from)."""
    from mols.problems.flowshop.instance import read_flowshop
    from mols.problems.io import bundled_instances_dir

    root = bundled_instances_dir() / "flowshop"
    table = Table(title=f"flowshop instances under {root}")
    for col in ("name", "jobs", "machines", "due dates", "file"):
        table.add_column(col)
    for path in sorted(root.glob("*.txt")) + sorted(root.glob("*/*.txt")):
        inst = read_flowshop(path)
        table.add_row(inst.name, str(inst.n), str(inst.m), inst.due_dates, str(path.relative_to(root)))
    console.print(table)
    show_qap_instances()
    show_tsp_instances()


def show_tsp_instances() -> None:
    """TSPLIB instances (-p tsp) and their optimal lengths; bi-objective pairs (-p bitsp) are built from them."""
    from mols.problems.tsp.instance import optimal_lengths, read_tsplib, tsp_dir

    optimum = optimal_lengths()
    table = Table(title=f"tsp instances (-p tsp; -p bitsp pairs them: kroAB100 = kroA100 + kroB100) under {tsp_dir()}")
    for col in ("name", "cities", "distances", "optimal length", ".opt.tour file"):
        table.add_column(col)
    for inst, path in sorted(((read_tsplib(path), path) for path in tsp_dir().glob("*.tsp")), key=lambda p: p[0].n):
        table.add_row(inst.name, str(inst.n), inst.edge_weight_type, f"{optimum.get(inst.name, '')}",
                      "yes" if path.with_suffix(".opt.tour").is_file() else "no")
    console.print(table)


def show_qap_instances() -> None:
    """QAPLIB (-p qap) and Knowles-Corne (-p mqap) instances, and their published solutions."""
    from mols.problems.qap.instance import bundled_qap_files, read_mqap, read_qaplib

    for kind, read, reference in (("qap", read_qaplib, ".sln"), ("mqap", read_mqap, ".PO")):
        files = bundled_qap_files(kind)
        table = Table(title=f"{kind} instances (-p {kind}) under {files[0].parent if files else kind}")
        for col in ("name", "facilities", "objectives", "symmetric", f"{reference} file"):
            table.add_column(col)
        for path in files:
            inst = read(path)
            table.add_row(inst.name, str(inst.n), str(inst.k), "yes" if inst.symmetric else "no",
                          "yes" if path.with_suffix(reference).is_file() else "no")
        console.print(table)


@bench_app.command("neighborhood")
@user_errors
def bench_neighborhood(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes.")] = "all",
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Only this neighborhood (default: all).")] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Timed CPU runs per cell; the median is reported.")] = 5,
    gpu_repeats: Annotated[int, typer.Option(min=1, help="Timed GPU runs per cell.")] = 200,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """Neighbors evaluated per second: CPU on 1 core and on all cores, GPU kernel alone and with transfers."""
    from mols.bench import neighborhood as bench
    from mols.problems.flowshop.model import Flowshop

    chosen = choose(sizes, FSP_SIZES, "--sizes")
    nbhs = [mols.get_neighborhood(neighborhood.value)] if neighborhood else [  # those the flowshop supports
        nbh for nbh in mols.NEIGHBORHOODS.values() if nbh.name in Flowshop.neighborhoods]
    with Progress(console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(chosen) * len(nbhs))
        df = bench.run(chosen, nbhs, repeats, gpu_repeats, on_row=lambda row: progress.advance(task))
    md, csv = bench.write_report(df, output)
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {md} and {csv}")


@app.command()
@user_errors
def report(
    folders: Annotated[list[Path], typer.Argument(help="Results folders, or folders holding them (searched recursively).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Report folder.")] = RESULTS / "report",
):
    """Indicators (pymoo), tables and plots over results folders; prints the summary.

    Each instance's reference set is the non-dominated union of all its runs' fronts. A folder that
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


def show_frame(frame, title: str) -> None:
    table = Table(title=title)
    for col in frame.columns:
        table.add_column(str(col), justify="right")
    for row in frame.itertuples(index=False):
        table.add_row(*(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row))
    console.print(table)


@bench_app.command("fsp")
@user_errors
def bench_fsp(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes, or all.")] = "all",
    algorithms: Annotated[str, typer.Option(help="Comma-separated: tabu, pls-dominating, pls-nondominated, "
                                            "or all.")] = "all",
    backends: BenchBackendsOpt = None,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Budget of every run, as in "
                                            "the paper.")] = DEFAULT_ITERATIONS,
    quick: Annotated[bool, typer.Option("--quick", help="A quick run: 100 iterations.")] = False,
    seeds: SeedsOpt = 1,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "fsp",
    runs_only: Annotated[bool, typer.Option("--runs-only", help="Only the runs; the same command without "
                                            "it builds the tables later (e.g. where pymoo is installed).")] = False,
):
    """The flowshop paper's Tables 2-5: tabu, PLS-√ and PLS-≠ on 1 core, all cores and the GPU.

    Runs already in OUTPUT/runs with the same configuration are kept: after an interruption, the
    same command resumes."""
    from mols.bench import fsp

    chosen_backends = choose(backends, fsp.BACKENDS, "--backends") if backends else fsp.default_backends()
    cells = fsp.plan(output, choose(sizes, FSP_SIZES, "--sizes"), choose(algorithms, fsp.ALGORITHMS, "--algorithms"),
                     chosen_backends, seeds, fsp.QUICK_ITERATIONS if quick else iterations)
    with Progress(*Progress.get_default_columns(), console=console, disable=not console.is_terminal,
                  transient=True) as progress:
        overall = progress.add_task("benchmark runs", total=len(cells))

        def on_start(cell):
            progress.advance(overall)
            task = progress.add_task(cell.folder.name, total=cell.config.iterations)
            return lambda done, size: progress.update(task, completed=done)

        with StopSignals(phase="search") as stop:
            try:
                ran = fsp.run(cells, on_start, stop)
            except KeyboardInterrupt:
                err_console.print(f"interrupted: finished runs are kept in {output / 'runs'}; the same command "
                                  "resumes")
                raise typer.Exit(stop.exit_code or EXIT_INTERRUPTED) from None
    console.print(f"ran {ran} of {len(cells)} runs (the rest were already done) in {output / 'runs'}")
    if not runs_only:
        from mols.bench import fsp_tables

        md, _ = fsp_tables.write_tables(output, [cell.folder for cell in cells])
        console.print(md.read_text(), highlight=False)
        console.print(f"wrote {md}", highlight=False)


@bench_app.command("tsp")
@user_errors
def bench_tsp(
    instances: Annotated[str, typer.Option(help="Comma-separated instances of the paper's table, or all, or "
                                           "none.")] = "all",
    rate_instances: Annotated[str, typer.Option(help="Comma-separated instances for the swap and 2-opt rates "
                                                "(random:N:SEED makes one), or all, or none.")] = "all",
    backends: BenchBackendsOpt = None,
    iterations: TabuIterationsOpt = 10_000,
    seeds: SeedsOpt = 3,
    cpu_moves: Annotated[float, typer.Option(min=1, help="Neighbors a CPU run evaluates at most (fewer "
                                             "iterations on large instances, extrapolated).")] = 2e8,
    rate_iterations: Annotated[int, typer.Option(min=2, help="Tabu iterations per rate measurement.")] = 50,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "tsp",
):
    """The paper's TSP table (tabu search, swap, eil101 ... rl5915, CPU against GPU) and move rates."""
    import pandas as pd

    from mols.bench import tsp

    chosen_backends = choose(backends, tsp.BACKENDS, "--backends") if backends else tsp.default_backends()
    table_instances = [] if instances == "none" else choose(instances, tsp.TABLE_INSTANCES, "--instances")
    rate_list = [] if rate_instances == "none" else (
        list(tsp.RATE_INSTANCES) if rate_instances == "all" else [s.strip() for s in rate_instances.split(",")])
    with Progress(console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task("tabu runs", total=len(table_instances) * len(chosen_backends) * seeds)
        table = tsp.table_runs(table_instances, chosen_backends, iterations, seeds, int(cpu_moves),
                               on_row=lambda row: progress.advance(task))
        rates = [row for instance in rate_list for nbh in ("swap", "2opt")
                 for row in tsp.rate_rows(instance, nbh, chosen_backends, rate_iterations, int(cpu_moves), 20)]
    md = tsp.write_report(table, pd.DataFrame(rates), iterations, output)
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {md}", highlight=False)


@bench_app.command("qap")
@user_errors
def bench_qap(
    instances: Annotated[str, typer.Option(help="Comma-separated QAPLIB instances, or all (the paper's tai12a "
                                           "... tai256c).")] = "all",
    backends: Annotated[str | None, typer.Option(help="Comma-separated: cpu1, cpu, cpu1-plain, gpu, "
                                                 "gpu-hostwalk (default: all of them; no gpu without a device).")] = None,
    iterations: TabuIterationsOpt = DEFAULT_ITERATIONS,
    plain_iterations: Annotated[int | None, typer.Option(min=1, help="cpu1-plain (O(n^3) per iteration) runs at "
                                                         "most this many; its full time is then estimated.")] = None,
    seeds: SeedsOpt = 3,
    its: Annotated[str, typer.Option(help="Iterated tabu search: comma-separated instance=iterations, or none."
                                     )] = "tai50a=2000000,tai100a=1600000",
    its_seeds: Annotated[int, typer.Option(min=1, help="ITS runs per instance.")] = 1,
    its_backends: Annotated[str | None, typer.Option(help="ITS: comma-separated backends (default: gpu where "
                                                     "there is one, and cpu).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "qap",
):
    """The QAP table of Luong et al. (tabu search, 10,000 iterations, CPU against GPU) with the best cost and
    its gap to the best known; then iterated tabu search on tai50a and tai100a."""
    from mols.bench import qap as bench
    from mols.environment import environment

    chosen = choose(instances, bench.INSTANCES, "--instances")
    chosen_backends = choose(backends, bench.BACKENDS, "--backends") if backends else bench.default_backends()
    its_budget = parse_its(its)
    chosen_its = choose(its_backends, bench.BACKENDS, "--its-backends") if its_backends else [
        b for b in bench.default_backends() if b in ("gpu", "cpu")]
    with Progress(console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(chosen) * len(chosen_backends) + len(its_budget) * len(
            chosen_its))
        advance = lambda row: progress.advance(task)
        tabu = bench.tabu_rows(chosen, chosen_backends, iterations, plain_iterations or iterations, seeds, advance)
        its_rows = bench.its_rows(its_budget, chosen_its, its_seeds, advance)
    md = bench.write_report(tabu, its_rows, environment(), output)
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {md}", highlight=False)


def parse_its(text: str) -> dict[str, int]:
    if text.strip() == "none":
        return {}
    try:
        pairs = [item.split("=") for item in text.replace(" ", "").split(",") if item]
        return {name: int(count) for name, count in pairs}
    except ValueError:
        raise MolsError(f"--its: expected instance=iterations pairs separated by commas, got {text!r}") from None


@bench_app.command("archive")
@user_errors
def bench_archive(
    ns: Annotated[str, typer.Option(help="Comma-separated numbers of candidates.")] = "1000,10000,40000,100000,1000000",
    sizes: Annotated[str, typer.Option(help="Comma-separated archive sizes.")] = "10,100,1000,10000",
    repeats: Annotated[int, typer.Option(min=1, help="Timed calls per case at most; the median is reported.")] = 100,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """The non-dominance filter alone: our GPU filter against moocore, pymoo, BoTorch and the host archive.

    For whole runs with CPU and GPU archiving, see `mols bench fsp --backends gpu,gpu-hostarchive`."""
    from mols.bench import archive as bench

    n_counts, size_counts = parse_counts(ns, "--ns"), parse_counts(sizes, "--sizes")
    with Progress(console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task("benchmarking", total=None)
        df = bench.run(ns=n_counts, sizes=size_counts, repeats=repeats, on_row=lambda row: progress.advance(task))
    md, csv = bench.write_report(df, output)
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {md} and {csv}")


@bench_app.command("threads")
@user_errors
def bench_threads(
    cases: Annotated[str, typer.Option(help="Comma-separated cases, or all.")] = "all",
    busy: Annotated[str, typer.Option(help="Comma-separated numbers of busy processes beside the runs.")] = "0,1",
    repeats: Annotated[int, typer.Option(min=1, help="Runs per cell; the median is reported.")] = 3,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """The CPU backend's default against --threads 1, on an idle machine and beside busy processes."""
    from mols.bench import threads as bench

    chosen = choose(cases, bench.CASES, "--cases")
    loads = [int(v) for v in busy.split(",")] if busy.replace(",", "").isdigit() else parse_counts(busy, "--busy")
    with Progress(console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(chosen) * len(loads))
        df = bench.run(chosen, loads, repeats, on_row=lambda row: progress.advance(task))
    md = bench.write_report(df, output, repeats)
    console.print(md.read_text(), highlight=False)
    console.print(f"wrote {md}", highlight=False)


def parse_counts(text: str, option: str) -> list[int]:
    try:
        counts = [int(tok) for tok in text.replace(",", " ").split()]
    except ValueError:
        raise MolsError(f"{option}: expected whole numbers separated by commas, got {text!r}") from None
    if not counts or min(counts) < 1:
        raise MolsError(f"{option}: expected positive whole numbers, got {text!r}")
    return counts


def main() -> None:
    """Console-script entry point: the process ends with the command, so `run` keeps its signal handlers
    to the end (in a test's CliRunner they are restored)."""
    _WHOLE_PROCESS["yes"] = True
    app()


if __name__ == "__main__":
    main()
