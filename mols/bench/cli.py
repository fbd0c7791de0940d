"""`mols bench ...`: the benchmark commands, beside the benchmarks they run (cli.py adds them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress

from mols.bench.common import BENCH_OUT, FSP_SIZES, choose
from mols.console import (
    BENCH_OUTPUT,
    SeedsOpt,
    advancing,
    console,
    err_console,
    new_app,
    show_report,
    user_errors,
)
from mols.errors import MolsError
from mols.neighborhoods import get_neighborhood
from mols.search import DEFAULT_ITERATIONS
from mols.signals import StopSignals

bench_app = new_app(help="Benchmarks that reproduce the papers' tables on this machine.")
EXIT_INTERRUPTED = 130
BenchBackendsOpt = Annotated[str | None, typer.Option(help="Comma-separated: cpu1 (1 core), cpu (all cores), gpu "
                                                      "(default: all three where there is a GPU).")]
TabuIterationsOpt = Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu iterations, as in the paper.")]


@bench_app.command("neighborhood")
@user_errors
def bench_neighborhood(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes.")] = "all",
    neighborhood: Annotated[str | None, typer.Option(
        "--neighborhood", "-n", help="Only this neighborhood, insertion or swap (default: both).")] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Timed CPU runs per cell; the median is reported.")] = 5,
    gpu_repeats: Annotated[int, typer.Option(min=1, help="Timed GPU runs per cell.")] = 200,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """Neighbors evaluated per second: CPU on 1 core and on all cores, GPU kernel alone and with transfers."""
    from mols.bench import neighborhood as bench
    from mols.problems.flowshop.model import Flowshop

    chosen = choose(sizes, FSP_SIZES, "--sizes")
    nbhs = [get_neighborhood(name) for name in choose(neighborhood or "all", Flowshop.neighborhoods, "--neighborhood")]
    with advancing(len(chosen) * len(nbhs)) as advance:
        df = bench.run(chosen, nbhs, repeats, gpu_repeats, on_row=advance)
    md, csv = bench.write_report(df, output)
    show_report(md, csv)


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
        show_report(md)


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
    with advancing(len(table_instances) * len(chosen_backends) * seeds, "tabu runs") as advance:
        table = tsp.table_runs(table_instances, chosen_backends, iterations, seeds, int(cpu_moves),
                               on_row=advance)
        rates = [row for instance in rate_list for nbh in ("swap", "2opt")
                 for row in tsp.rate_rows(instance, nbh, chosen_backends, rate_iterations, int(cpu_moves), 20)]
    md = tsp.write_report(table, pd.DataFrame(rates), iterations, output)
    show_report(md)


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
    with advancing(len(chosen) * len(chosen_backends) + len(its_budget) * len(chosen_its)) as advance:
        tabu = bench.tabu_rows(chosen, chosen_backends, iterations, plain_iterations or iterations, seeds, advance)
        its_rows = bench.its_rows(its_budget, chosen_its, its_seeds, advance)
    md = bench.write_report(tabu, its_rows, environment(), output)
    show_report(md)


@bench_app.command("q3ap")
@user_errors
def bench_q3ap(
    instances: Annotated[str, typer.Option(help="Comma-separated instances of instances/q3ap, or all (nug12, nug15, "
                                           "nug18, nug22).")] = "all",
    runs: Annotated[int, typer.Option(min=1, help="ILS-TS runs per instance (paper: 50).")] = 10,
    ils: Annotated[int, typer.Option(min=1, help="ILS iterations at most per run (paper: 100).")] = 100,
    ts: Annotated[int, typer.Option(min=1, help="Tabu iterations per ILS iteration (paper: 5000).")] = 5000,
    cpu_iterations: Annotated[int, typer.Option(min=1, help="Tabu iterations timed on one CPU core for its rate."
                                                )] = 20,
    compare: Annotated[str, typer.Option(help="Instance of the two neighborhoods' comparison at equal evaluations "
                                         "(paper: nug15), or none.")] = "nug15",
    compare_iterations: Annotated[int, typer.Option(min=1, help="Its iterations of the advanced neighborhood "
                                                    "(paper: 11025); the basic one gets as many evaluations.")] = 1000,
    compare_runs: Annotated[int, typer.Option(min=1, help="Its runs per neighborhood (paper: 50).")] = 5,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "q3ap",
):
    """The Q3AP experiments of Luong et al. (2010): Table I (ILS-TS with the advanced neighborhood, average and
    max value, hits, time on the GPU and estimated on one CPU core, ILS iterations), then the basic and advanced
    neighborhoods compared at equal evaluations."""
    from mols.bench import q3ap as bench
    from mols.environment import environment

    chosen = choose(instances, bench.INSTANCES, "--instances")
    compared = compare.strip() != "none"
    env, table, rows = environment(), [], []
    with advancing(len(chosen) + 2 * compared) as advance:
        def keep(into: list):  # the report is rewritten after each row: a run cut short keeps what it measured
            return lambda row: (into.append(row), bench.write_report(table, rows, env, output), advance())

        bench.table_rows(chosen, runs, ils, ts, cpu_iterations, keep(table))
        if compared:
            bench.compare_rows(compare.strip(), compare_iterations, compare_runs, keep(rows))
    show_report(bench.write_report(table, rows, env, output))


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
    with advancing(None) as advance:
        df = bench.run(ns=n_counts, sizes=size_counts, repeats=repeats, on_row=advance)
    md, csv = bench.write_report(df, output)
    show_report(md, csv)


@bench_app.command("natural-end")
@user_errors
def bench_natural_end(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes, or all.")] = "all",
    variants: Annotated[str, typer.Option(help="Comma-separated PLS variants: nondominated (PLS-≠), dominating "
                                          "(PLS-√), or all.")] = "all",
    backends: Annotated[str | None, typer.Option(help="Comma-separated: cpu, gpu (default: both where there is "
                                                 "a GPU).")] = None,
    seeds: SeedsOpt = 3,
    repeats: Annotated[int, typer.Option(min=1, help="Timed runs per seed; the median is reported.")] = 3,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Cap on each run's iterations.")
                          ] = 100_000,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "natural-end",
):
    """PLS-1 to its natural end (--restarts 0): iterations, front size and seconds, PLS-≠ and PLS-√."""
    from mols.backends import gpu_available
    from mols.bench import natural_end as bench

    chosen = choose(sizes, FSP_SIZES, "--sizes")
    chosen_variants = choose(variants, bench.VARIANTS, "--variants")
    chosen_backends = choose(backends or ("cpu,gpu" if gpu_available() else "cpu"), ("cpu", "gpu"), "--backends")
    with advancing(len(chosen) * len(chosen_variants) * len(chosen_backends)) as advance:
        df = bench.run(chosen, chosen_variants, chosen_backends, seeds, repeats, iterations, on_row=advance)
    show_report(*bench.write_report(df, output, iterations))


@bench_app.command("ils3opt")
@user_errors
def bench_ils3opt(
    instances: Annotated[str, typer.Option(help="Comma-separated TSP instances, or all (the paper's five).")] = "all",
    solvers: Annotated[str | None, typer.Option(help="Comma-separated: cpu1 (1 core), cpu (all cores), fi-thread, "
                                                "fi-block, fi-block-shared, rkbi, cpu1-rkbi, and merged rounds "
                                                "(--island): cpu1-merged, cpu-merged, fi-block-merged, "
                                                "fi-block-shared-merged (default: the first five where there is a "
                                                "GPU, else cpu1 and cpu).")] = None,
    populations: Annotated[str, typer.Option(help="Comma-separated population sizes (the paper's nbsol: 1, 8, 64, "
                                             "512, 2048).")] = "1,8,64,512,2048",
    cpu_populations: Annotated[str | None, typer.Option(help="Population sizes of cpu1 and cpu (default: "
                                                        "--populations).")] = None,
    runs: Annotated[int, typer.Option(min=1, help="Runs per row (seeds 0 .. runs - 1).")] = 3,
    cpu_runs: Annotated[int | None, typer.Option(min=1, help="Runs per row of cpu1 and cpu (default: --runs).")
                        ] = None,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="The paper's it_total: ILS "
                                            "iterations per run, split over the population.")] = 1_048_576,
    time_cap: Annotated[float, typer.Option("--time", min=0.01, help="Seconds at most per GPU run.")] = 60.0,
    cpu_time: Annotated[float | None, typer.Option(min=0.01, help="Seconds at most per cpu1 or cpu run (default: "
                                                   "--time).")] = None,
    gap: Annotated[float | None, typer.Option(min=0.0, help="A run stops at a tour within this % of the optimum "
                                              "(0: the optimum; default: the issue's quality per instance, 0 on "
                                              "kroA100 and lin318, 0.02 rat783, 0.01 fl1577, 0.2 pcb3038); "
                                              "t_target is the time to it.")] = None,
    twin: Annotated[int, typer.Option(min=0, help="Run the first S solutions of each run again on 1 core (the "
                                      "same search: the paper's speed-up at equal quality; -merged rows: the first "
                                      "island); 0: no twin.")] = 8,
    island: Annotated[int, typer.Option(min=1, help="The -merged solvers' solutions per island (mols run --merge; "
                                        "the population where it is smaller).")] = 512,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "ils3opt",
):
    """ILS-3opt (Delévacq et al. 2012, Tables 1 and 3): speed-up over one core, frequency of the optimum,
    average deviation and time to quality, on the CPU and the GPU strategies."""
    from mols.bench import ils3opt as bench

    chosen = choose(instances, bench.INSTANCES, "--instances")
    chosen_solvers = choose(solvers, bench.SOLVERS, "--solvers") if solvers else bench.default_solvers()
    sizes = parse_counts(populations, "--populations")
    cpu_sizes = parse_counts(cpu_populations, "--cpu-populations") if cpu_populations else sizes
    cpu_time = time_cap if cpu_time is None else cpu_time
    cells = sum(len(cpu_sizes if s in bench.CPU_SOLVERS else sizes) for s in chosen_solvers) * len(chosen)
    with advancing(cells) as advance:
        df = bench.run(chosen, chosen_solvers, sizes, cpu_sizes, runs, iterations, time_cap, cpu_time, gap,
                       on_row=advance, twin=twin, island=island, cpu_runs=cpu_runs)
    shown_runs = runs if cpu_runs in (None, runs) else f"{runs} (cpu1 and cpu: {cpu_runs})"
    settings = {"runs": shown_runs, "it_total": f"{iterations:,}", "time cap": f"{time_cap:g} s",
                "cpu time cap": f"{cpu_time:g} s",
                "target": "the issue's gap per instance" if gap is None else f"{gap:g} % above the optimum",
                "twin": f"{twin} solutions" if twin else "none", "merged islands": f"{island} solutions"}
    show_report(*bench.write_report(df, output, settings))


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
    loads = parse_counts(busy, "--busy", least=0)
    with advancing(len(chosen) * len(loads)) as advance:
        df = bench.run(chosen, loads, repeats, on_row=advance)
    md = bench.write_report(df, output, repeats)
    show_report(md)


@bench_app.command("batch")
@user_errors
def bench_batch(
    instances: Annotated[str, typer.Option(help="Comma-separated flowshop, QAP and TSP instances, or all.")] = "all",
    sizes: Annotated[str, typer.Option(help="Comma-separated numbers of searches per batch.")] = "1,8,64,512,4096",
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu steps per search (the CPU "
                                            "runs a tenth of them).")] = 1000,
    repeats: Annotated[int, typer.Option(min=1, help="Timed batches per cell; the median is reported.")] = 3,
    max_gib: Annotated[float, typer.Option(min=0.01, help="GPU batches whose F and tabu memory would pass this "
                                           "many GiB are left out.")] = 16.0,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "batch",
):
    """Neighbors per second of one tabu search against batches of searches sharing each launch (GPU) or spread
    over the cores (CPU), and aggregated tabu search's weight vectors side by side against one."""
    from mols.backends import gpu_available
    from mols.bench import batch as bench

    chosen = choose(instances, bench.CASES, "--instances")
    counts = parse_counts(sizes, "--sizes")
    df, vectors = bench.tables(chosen, counts, iterations, repeats, gpu_available(), max_gib * 2**30)
    show_report(bench.write_report(df, vectors, output))


@bench_app.command("pymoo")
@user_errors
def bench_pymoo(
    instances: Annotated[str, typer.Option(help="Comma-separated flowshop instances, or all (20x10 ... 200x20).")
                         ] = "all",
    methods: Annotated[str, typer.Option(help="Comma-separated: pls, tabu, nsga2, nsga3, or all.")] = "all",
    wall: Annotated[float, typer.Option(min=0.01, help="Seconds per run, the same for every method.")] = 2.0,
    seeds: SeedsOpt = 3,
    backend: Annotated[str, typer.Option("--backend", "-b", help="auto, cpu or gpu: where mols evaluates, for "
                                         "every method.")] = "auto",
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "pymoo",
):
    """Hypervolume at an equal wall time: mols' PLS-1 and aggregated tabu search against pymoo's NSGA-II and
    NSGA-III, evaluated by mols' backend through mols.pymoo, on the flowshop from 20x10 to 200x20."""
    from mols.bench import pymoo_hv as bench

    chosen = choose(instances, bench.INSTANCES, "--instances")
    chosen_methods = choose(methods, bench.METHODS, "--methods")
    with advancing(len(chosen) * len(chosen_methods) * seeds, "runs") as advance:
        df = bench.run(chosen, chosen_methods, wall, seeds, backend, on_row=advance)
    show_report(*bench.write_report(df, output))


def parse_counts(text: str, option: str, least: int = 1) -> list[int]:
    try:
        counts = [int(tok) for tok in text.replace(",", " ").split()]
    except ValueError:
        raise MolsError(f"{option}: expected whole numbers separated by commas, got {text!r}") from None
    if not counts or min(counts) < least:
        raise MolsError(f"{option}: expected whole numbers of at least {least}, got {text!r}")
    return counts


@bench_app.command("ppp")
@user_errors
def bench_ppp(
    neighborhoods: Annotated[str, typer.Option(help="Comma-separated: hamming1, hamming2, hamming3 (the papers' "
                                               "Tables 3 and 4 and the appendix), or all.")] = "all",
    sizes: Annotated[str | None, typer.Option(help="Comma-separated sizes M-N timed (default: the papers' nine, "
                                              "hamming3 up to 201-217).")] = None,
    backends: BenchBackendsOpt = None,
    iterations: TabuIterationsOpt = 1000,
    repeats: Annotated[int, typer.Option(min=1, help="Timed runs per cell; the median is reported.")] = 3,
    cpu_moves: Annotated[float, typer.Option(min=1, help="Neighbors a timed CPU run evaluates at most (fewer "
                                             "iterations on large instances, extrapolated).")] = 2e7,
    runs: Annotated[int, typer.Option(min=0, help="Tabu runs per instance for the success rate (0: none).")] = 30,
    run_iterations: Annotated[int, typer.Option(min=1, help="Budget of each success run.")] = 10_000,
    success_sizes: Annotated[str | None, typer.Option(help="Comma-separated sizes whose success rate is "
                                                      "measured (default: 73-73, 81-81, 101-117).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "ppp",
):
    """The PPP tables of Luong et al.: tabu search with Hamming 1, 2 and 3 on 1 core, all cores and the GPU,
    and how many of `runs` seeded runs find a solution."""
    from mols.bench import ppp as bench

    nbhs = choose(neighborhoods, tuple(bench.SIZES), "--neighborhoods")
    chosen_backends = choose(backends, bench.BACKENDS, "--backends") if backends else bench.default_backends()
    timed = {nbh: tuple(choose(sizes, bench.SIZES[nbh], "--sizes")) if sizes else bench.SIZES[nbh] for nbh in nbhs}
    success = {nbh: tuple(choose(success_sizes, bench.PAPER_SIZES, "--success-sizes")) if success_sizes
               else bench.SUCCESS_SIZES[nbh] for nbh in nbhs}
    with advancing(len(bench.cells(timed, success if runs else {})), "PPP cells") as advance:
        df = bench.run(timed, chosen_backends, iterations, int(cpu_moves), repeats, success_sizes=success, runs=runs,
                       run_iterations=run_iterations, on_row=advance)
    show_report(*bench.write_report(df, output))


@bench_app.command("weierstrass")
@user_errors
def bench_weierstrass(
    dimensions: Annotated[str, typer.Option(help="Comma-separated dimensions, or all (1 ... 10, Table 5).")] = "all",
    precisions: Annotated[str, typer.Option(help="Comma-separated: float32 (the paper's), float64, or all.")
                          ] = "all",
    backends: BenchBackendsOpt = None,
    iterations: TabuIterationsOpt = 10_000,
    cpu_iterations: Annotated[int, typer.Option(min=1, help="CPU runs are this long at most (their 10,000-"
                                                "iteration time is then estimated).")] = 3,
    repeats: Annotated[int, typer.Option(min=1, help="Tabu runs (seeds) per cell.")] = 3,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "weierstrass",
):
    """Table 5 of Luong et al.: tabu search on the Weierstrass function with 10,000 crowns neighbors, dimensions
    1 ... 10, float32 and float64, on 1 core, all cores and the GPU, with the best value reached."""
    from mols.bench import weierstrass as bench
    from mols.problems.weierstrass.instance import PRECISIONS, TABLE_DIMENSIONS

    dims = [int(d) for d in choose(dimensions, [str(d) for d in TABLE_DIMENSIONS], "--dimensions")]
    chosen_precisions = choose(precisions, PRECISIONS, "--precisions")
    chosen_backends = choose(backends, bench.BACKENDS, "--backends") if backends else bench.default_backends()
    with advancing(len(dims) * len(chosen_precisions) * len(chosen_backends), "Weierstrass cells") as advance:
        df = bench.run(dims, chosen_precisions, chosen_backends, iterations, cpu_iterations, repeats, on_row=advance)
    show_report(*bench.write_report(df, output))


@bench_app.command("gpu-techniques")
@user_errors
def bench_gpu_techniques(
    cases: Annotated[str, typer.Option(help="Comma-separated: ppp (Hamming 2, 201-217), tsp (swap, d1291), qap "
                                       "(swap, tai100a), flowshop (insertion, 200_20_01), or all.")] = "all",
    repeats: Annotated[int, typer.Option(min=1, help="Iterations timed per measurement; the median is "
                                         "reported.")] = 50,
    quick: Annotated[bool, typer.Option("--quick", help="A quick run: 10 iterations per measurement, blocks 128, "
                                        "256 and 512 in the fixed-block study.")] = False,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "gpu-techniques",
):
    """The IEEE TC paper's Tables 7-9 on this GPU: host against device generation, device reduction against F
    copied back, fixed blocks against the tuned launch, and the memory variants."""
    from mols.backends.tuning import BLOCKS
    from mols.bench import gpu_techniques as bench

    chosen = choose(cases, bench.CASES, "--cases")
    repeats, blocks = (10, bench.QUICK_BLOCKS) if quick else (repeats, BLOCKS)
    settings = {"iterations per measurement": repeats, "fixed blocks": ", ".join(map(str, blocks))}
    with advancing(len(chosen) * 4) as advance:  # the report is rewritten after each case: a run cut short keeps it
        tables = bench.run(chosen, repeats, blocks, on_row=advance,
                           on_case=lambda so_far: bench.write_report(so_far, output, settings))
    show_report(bench.write_report(tables, output, settings))


@bench_app.command("multistart")
@user_errors
def bench_multistart(
    instances: Annotated[str, typer.Option(help="Comma-separated QAP instances of the paper's Table 5, all (tai12a "
                                           "... tai256c) or none.")] = "all",
    searches: Annotated[int, typer.Option("--searches", "-k", min=1, help="Independent searches per cell (paper: "
                                          "20).")] = 20,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="ITS iterations per search, in runs of "
                                            "1,000 (paper: 10 runs).")] = 10_000,
    columns: Annotated[str, typer.Option(help="Comma-separated: cpu1 (one core), cpu (a worker per core), gpu1 (one "
                                         "GPU), gpu (a worker per GPU), or all; those without their device are "
                                         "skipped.")] = "all",
    repeats: Annotated[int, typer.Option(min=1, help="Timed multistarts per cell; the median is reported.")] = 3,
    cpu_moves: Annotated[float, typer.Option(min=1, help="QAP: neighbors a CPU search evaluates at most (fewer "
                                             "iterations, the time extrapolated).")] = 3e5,
    flowshop: Annotated[bool, typer.Option("--flowshop/--no-flowshop", help="Also K PLS-≠ searches on the flowshop "
                                           "200_20_01.")] = True,
    pls_iterations: Annotated[int, typer.Option(min=1, help="PLS iterations per search on 200_20_01.")] = 1000,
    pls_cpu_moves: Annotated[float, typer.Option(min=1, help="Flowshop: neighbors a CPU search evaluates at most "
                                                 "(default: 3 iterations of 39,601).")] = 1.5e5,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "multistart",
):
    """Table 5 of Luong et al. (2009): K iterated tabu searches on QAP tai12a ... tai256c on one core, all cores,
    one GPU and all GPUs (one search per task, and batched: a GPU's searches sharing each launch) on Dask, then
    K PLS searches on the flowshop 200_20_01."""
    from mols.bench import multistart as bench
    from mols.multistart.cluster import visible_gpus

    chosen = [] if instances == "none" else choose(instances, bench.INSTANCES, "--instances")
    wanted, notes = bench.plan_columns(choose(columns, bench.COLUMNS, "--columns"), len(visible_gpus()))
    if not wanted:
        raise MolsError(f"--columns {columns}: none can run on this machine ({'; '.join(notes)})")
    cases = [bench.qap_case(name, iterations, int(cpu_moves)) for name in chosen]
    cases += [bench.flowshop_case(pls_iterations, int(pls_cpu_moves))] if flowshop else []
    if not cases:
        raise MolsError("--instances none with --no-flowshop: nothing to measure")
    env = bench.header({"searches (K)": searches, "ITS iterations per search": f"{iterations:,}",
                        "PLS iterations per search": f"{pls_iterations:,}" if flowshop else "no flowshop row",
                        "repeats": repeats, "CPU cap (QAP, flowshop)":
                        f"{int(cpu_moves):,}, {int(pls_cpu_moves):,} neighbors per search"})

    def on_row(rows: list[dict], clusters: list[dict]) -> None:  # a run cut short keeps the cells measured
        row = rows[-1]
        err_console.print(f"{row['instance']} {row['column']} {row['mode']}: {row['seconds']:.2f} s for "
                          f"{row['searches']} x {row['iterations']:,} iterations", highlight=False)
        bench.write_report(rows, clusters, notes, env, output)

    try:
        rows, clusters = bench.run(cases, wanted, bench.Settings(searches, repeats), output, on_row)
    except KeyboardInterrupt:
        err_console.print(f"interrupted: the cells measured so far are in {output}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    show_report(bench.write_report(rows, clusters, notes, env, output), output / "multistart.csv")
