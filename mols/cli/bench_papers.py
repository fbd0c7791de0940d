"""`mols bench` for the Luong et al. papers' tables: flowshop, TSP, QAP, Q3AP, PPP and Weierstrass."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mols.bench.common import BENCH_OUT, FSP_SIZES, choose
from mols.cli.console import (
    BENCH_OUTPUT,
    SeedsOpt,
    advancing,
    console,
    err_console,
    kept,
    progress_bar,
    show_report,
)
from mols.cli.options import EXIT_INTERRUPTED
from mols.errors import MolsError
from mols.runner.config import DEFAULT_ITERATIONS
from mols.signals import StopSignals

BenchBackendsOpt = Annotated[str | None, typer.Option(help="Comma-separated: cpu1 (1 core), cpu (all cores), gpu "
                                                      "(default: all three where there is a GPU).")]
TabuIterationsOpt = Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu iterations, as in the paper.")]


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
    with progress_bar() as progress:
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
    """The papers' TSP table (tabu search, swap, the 2009 report's twelve instances eil101 ... rl5915, CPU against
    GPU) and move rates."""
    import pandas as pd

    from mols.bench import tsp

    chosen_backends = choose(backends, tsp.BACKENDS, "--backends") if backends else tsp.default_backends()
    table_instances = [] if instances == "none" else choose(instances, tsp.TABLE_INSTANCES, "--instances")
    rate_list = [] if rate_instances == "none" else (
        list(tsp.RATE_INSTANCES) if rate_instances == "all" else [s.strip() for s in rate_instances.split(",")])
    runs: list[dict] = []
    with advancing(len(table_instances) * len(chosen_backends) * seeds, "tabu runs") as advance:
        write = lambda rows: tsp.write_report(pd.DataFrame(rows), pd.DataFrame(), iterations, output)
        table = tsp.table_runs(table_instances, chosen_backends, iterations, seeds, int(cpu_moves),
                               on_row=kept(runs, write, advance))
        rates = [row for instance in rate_list for nbh in ("swap", "2opt")
                 for row in tsp.rate_rows(instance, nbh, chosen_backends, rate_iterations, int(cpu_moves), 20, seeds)]
    md = tsp.write_report(table, pd.DataFrame(rates), iterations, output)
    show_report(md)


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
    env, tabu, its_rows = environment(), [], []
    with advancing(len(chosen) * len(chosen_backends) + len(its_budget) * len(chosen_its)) as advance:
        write = lambda rows: bench.write_report(tabu, its_rows, env, output)
        bench.tabu_rows(chosen, chosen_backends, iterations, plain_iterations or iterations, seeds,
                        kept(tabu, write, advance))
        bench.its_rows(its_budget, chosen_its, its_seeds, kept(its_rows, write, advance))
    md = bench.write_report(tabu, its_rows, env, output)
    show_report(md)


def parse_its(text: str) -> dict[str, int]:
    if text.strip() == "none":
        return {}
    try:
        pairs = [item.split("=") for item in text.replace(" ", "").split(",") if item]
        return {name: int(count) for name, count in pairs}
    except ValueError:
        raise MolsError(f"--its: expected instance=iterations pairs separated by commas, got {text!r}") from None


def bench_q3ap(
    instances: Annotated[str, typer.Option(help="Comma-separated instances of Table I (nug12, nug15, nug18, nug22), "
                                           "all, or none (the comparison alone).")] = "all",
    runs: Annotated[int, typer.Option(min=1, help="ILS-TS runs per instance (paper: 50).")] = 10,
    ils: Annotated[int, typer.Option(min=1, help="ILS iterations at most per run (paper: 100).")] = 100,
    ts: Annotated[int, typer.Option(min=1, help="Tabu iterations per ILS iteration (paper: 5000).")] = 5000,
    cpu_iterations: Annotated[int, typer.Option(min=1, help="Tabu iterations timed on one CPU core for its rate."
                                                )] = 20,
    compare: Annotated[str, typer.Option(help="Instance of the two neighborhoods' comparison at equal evaluations, "
                                         "Fig. 2 (paper: nug15; any q3ap instance, random:N:SEED too), or none."
                                         )] = "nug15",
    compare_iterations: Annotated[int, typer.Option(min=1, help="Its iterations of the advanced neighborhood "
                                                    "(paper: 11025); the basic one gets as many evaluations.")] = 1000,
    compare_runs: Annotated[int, typer.Option(min=1, help="Its runs (seeds) per neighborhood (paper: 50).")] = 10,
    compare_points: Annotated[int, typer.Option(min=1, help="Points of its curve (q3ap_fig2.csv and .png).")] = 20,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "q3ap",
):
    """The Q3AP experiments of Luong et al. (2010): Table I (ILS-TS with the advanced neighborhood, average and
    max value, hits, time on the GPU and estimated on one CPU core, ILS iterations), then the basic and advanced
    neighborhoods compared at equal evaluations, Fig. 2: the best cost's mean and spread over the seeds."""
    from mols.bench import q3ap as bench
    from mols.bench.q3ap_fig2 import compare_rows
    from mols.environment import environment

    chosen = [] if instances.strip() == "none" else choose(instances, bench.INSTANCES, "--instances")
    compared = compare.strip() != "none"
    env, table, rows = environment(), [], []
    with advancing(len(chosen) + 2 * compared) as advance:
        write = lambda done: bench.write_report(table, rows, env, output)
        bench.table_rows(chosen, runs, ils, ts, cpu_iterations, kept(table, write, advance))
        if compared:
            compare_rows(compare.strip(), compare_iterations, compare_runs, kept(rows, write, advance), compare_points)
    show_report(bench.write_report(table, rows, env, output))


def bench_ppp(
    neighborhoods: Annotated[str, typer.Option(help="Comma-separated: hamming1, hamming2, hamming3 (the papers' "
                                               "Tables 3 and 4 and the appendix), or all.")] = "all",
    sizes: Annotated[str | None, typer.Option(help="Comma-separated sizes M-N timed, or all (the default: the 2009 "
                                              "report's sixteen, 73-73 ... 1301-1317; hamming3 up to 201-217).")
                     ] = None,
    backends: BenchBackendsOpt = None,
    iterations: TabuIterationsOpt = 1000,
    repeats: Annotated[int, typer.Option(min=1, help="Timed runs per cell: median and range reported.")] = 3,
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
    import pandas as pd

    from mols.bench import ppp as bench

    nbhs = choose(neighborhoods, tuple(bench.SIZES), "--neighborhoods")
    chosen_backends = choose(backends, bench.BACKENDS, "--backends") if backends else bench.default_backends()
    timed = {nbh: tuple(choose(sizes, bench.SIZES[nbh], "--sizes")) if sizes else bench.SIZES[nbh] for nbh in nbhs}
    success = {nbh: tuple(choose(success_sizes, bench.PAPER_SIZES, "--success-sizes")) if success_sizes
               else bench.SUCCESS_SIZES[nbh] for nbh in nbhs}
    with advancing(len(bench.cells(timed, success if runs else {})), "PPP cells") as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output)
        df = bench.run(timed, chosen_backends, iterations, int(cpu_moves), repeats, success_sizes=success, runs=runs,
                       run_iterations=run_iterations, on_row=kept([], write, advance))
    show_report(*bench.write_report(df, output))


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
    import pandas as pd

    from mols.bench import weierstrass as bench
    from mols.problems.weierstrass.instance import PRECISIONS, TABLE_DIMENSIONS

    dims = [int(d) for d in choose(dimensions, [str(d) for d in TABLE_DIMENSIONS], "--dimensions")]
    chosen_precisions = choose(precisions, PRECISIONS, "--precisions")
    chosen_backends = choose(backends, bench.BACKENDS, "--backends") if backends else bench.default_backends()
    with advancing(len(dims) * len(chosen_precisions) * len(chosen_backends), "Weierstrass cells") as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output)
        df = bench.run(dims, chosen_precisions, chosen_backends, iterations, cpu_iterations, repeats,
                       on_row=kept([], write, advance))
    show_report(*bench.write_report(df, output))


COMMANDS = {"fsp": bench_fsp, "tsp": bench_tsp, "qap": bench_qap, "q3ap": bench_q3ap, "ppp": bench_ppp, "weierstrass": bench_weierstrass}
