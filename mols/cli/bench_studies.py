"""`mols bench` for the other studies: ILS-3opt, multistart, natural end, pymoo, batches and anytime results."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mols.bench.common import BENCH_OUT, FSP_SIZES, choose, parse_counts
from mols.cli.console import BENCH_OUTPUT, SeedsOpt, advancing, err_console, kept, show_report
from mols.cli.options import EXIT_INTERRUPTED
from mols.errors import MolsError


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
    time_cap: Annotated[float | None, typer.Option("--time", min=0.01, help="Seconds at most per GPU run (default "
                                                   "60; --paper: every trial, default none).")] = None,
    cpu_time: Annotated[float | None, typer.Option(min=0.01, help="Seconds at most per cpu1 or cpu run (default: "
                                                   "--time).")] = None,
    gap: Annotated[float | None, typer.Option(min=0.0, help="A run stops at a tour within this % of the optimum "
                                              "(0: the optimum; default: the issue's quality per instance, 0 on "
                                              "kroA100 and lin318, 0.02 rat783, 0.01 fl1577, 0.2 pcb3038); "
                                              "t_target is the time to it.")] = None,
    twin: Annotated[int, typer.Option(min=0, help="Run the first S solutions of each run again on 1 core (the "
                                      "same search: the paper's speed-up at equal quality; -merged rows: the first "
                                      "island); 0: no twin.")] = 8,
    twin_runs: Annotated[int | None, typer.Option(min=1, help="The twin of each row's first N runs only (default: "
                                                  "every run's).")] = None,
    island: Annotated[int, typer.Option(min=1, help="The -merged solvers' solutions per island (mols run --merge; "
                                        "the population where it is smaller).")] = 512,
    paper: Annotated[bool, typer.Option("--paper", help="Tables 1-3 at the paper's budgets, beside its figures "
                                        "(--solvers: fi-thread, fi-block, fi-block-shared, rkbi, cpu, cpu-rkbi, none).")] = False,
    trials: Annotated[int | None, typer.Option(min=1, help="--paper: trials a cell (default 20, 10 from 1,000 cities).")] = None,
    sequential: Annotated[str, typer.Option(help="--paper: validate the sequential ILS: cpu, cpu-rkbi or none.")] = "none",
    rkbi_blocks: Annotated[str, typer.Option(help="--paper: rkbi's blocks a solution, paper (Table 2) or auto.")] = "paper",
    combine: Annotated[Path | None, typer.Option(help="--paper: one report of the cells of the runs (parts of the "
                                                 "tables) under this folder, nothing run.")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "ils3opt",
):
    """ILS-3opt (Delévacq et al. 2012, Tables 1-3): speed-up over one core, frequency of the optimum,
    average deviation and time to quality, on the CPU and the GPU strategies."""
    from mols.cli.bench_ils3opt import combine_tables, only_with_paper, paper_tables, plain_tables

    if paper and combine:
        return combine_tables(combine, output)
    if paper:
        return paper_tables(instances, solvers, populations, trials, time_cap, twin, sequential, rkbi_blocks, output,
                            twin_runs)
    only_with_paper(trials, sequential, rkbi_blocks, combine)
    plain_tables(instances, solvers, populations, cpu_populations, runs, cpu_runs, iterations, time_cap, cpu_time, gap,
                 twin, twin_runs, island, output)


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
    repeats: Annotated[int, typer.Option(min=1, help="Timed multistarts per cell: median and range reported.")] = 3,
    modes: Annotated[str, typer.Option(help="Comma-separated: one (a search per task), batched (a GPU's searches "
                                       "sharing each launch, in equal shares over the GPUs), or all.")] = "all",
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
    from mols.bench.multistart_report import write_report
    from mols.parallel.workers import visible_gpus

    chosen = [] if instances == "none" else choose(instances, bench.INSTANCES, "--instances")
    wanted, notes = bench.plan_columns(choose(columns, bench.COLUMNS, "--columns"), len(visible_gpus()))
    settings = bench.Settings(searches, repeats, tuple(choose(modes, bench.MODES, "--modes")))
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
        write_report(rows, clusters, notes, env, output)

    try:
        rows, clusters = bench.run(cases, wanted, settings, output, on_row)
    except KeyboardInterrupt:
        err_console.print(f"interrupted: the cells measured so far are in {output}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    show_report(write_report(rows, clusters, notes, env, output), output / "multistart.csv")


def bench_natural_end(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes, or all.")] = "all",
    variants: Annotated[str, typer.Option(help="Comma-separated PLS variants: nondominated (PLS-≠), dominating "
                                          "(PLS-√), or all.")] = "all",
    backends: Annotated[str | None, typer.Option(help="Comma-separated: cpu, gpu (default: both where there is "
                                                 "a GPU).")] = None,
    seeds: SeedsOpt = 3,
    repeats: Annotated[int, typer.Option(min=1, help="Timed runs per seed: median and range reported.")] = 3,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Cap on each run's iterations.")
                          ] = 100_000,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "natural-end",
):
    """PLS-1 to its natural end (--restarts 0): iterations, front size and seconds, PLS-≠ and PLS-√."""
    import pandas as pd

    from mols.backends import gpu_available
    from mols.bench import natural_end as bench

    chosen = choose(sizes, FSP_SIZES, "--sizes")
    chosen_variants = choose(variants, bench.VARIANTS, "--variants")
    chosen_backends = choose(backends or ("cpu,gpu" if gpu_available() else "cpu"), ("cpu", "gpu"), "--backends")
    with advancing(len(chosen) * len(chosen_variants) * len(chosen_backends)) as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output, iterations)
        df = bench.run(chosen, chosen_variants, chosen_backends, seeds, repeats, iterations,
                       on_row=kept([], write, advance))
    show_report(*bench.write_report(df, output, iterations))


def bench_cluster(
    instances: Annotated[str | None, typer.Option(help="Comma-separated PPP sizes of the paper's Tables 10 and 11, "
                                                  "or all (73-73 ... 1301-1317; default: 73-73, 201-217, "
                                                  "401-417).")] = None,
    workers: Annotated[str | None, typer.Option(help="Comma-separated CPU worker counts (default: 1, 2, 4 ... the "
                                                "cores, then twice the cores: two machines' worth).")] = None,
    gpu: Annotated[bool, typer.Option("--gpu/--no-gpu", help="Also one GPU worker (skipped without a GPU).")] = True,
    searches: Annotated[int, typer.Option("--searches", "-k", min=1, help="Tabu searches per cell, the same in "
                                          "every column.")] = 32,
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu iterations per search.")] = 1000,
    repeats: Annotated[int, typer.Option(min=1, help="Timed multistarts per cell: median and range reported.")] = 3,
    cpu_moves: Annotated[float, typer.Option(min=1, help="Neighbors a CPU search evaluates at most (fewer "
                                             "iterations, the time extrapolated).")] = 1e5,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "cluster",
):
    """L13 Tables 10 and 11: PPP Hamming 2 tabu searches on 1 ... all cores as Dask workers (and more processes
    than cores, several machines' worth) against one GPU, speed-ups beside the paper's cluster and grid."""
    from mols.bench import cluster as bench
    from mols.parallel.workers import visible_gpus

    chosen = choose(instances, bench.INSTANCES, "--instances") if instances else list(bench.DEFAULT_INSTANCES)
    counts = parse_counts(workers, "--workers") if workers else bench.default_workers()
    has_gpu = gpu and bool(visible_gpus())
    notes = [] if has_gpu or not gpu else ["gpu1: skipped, no GPU visible (CuPy finds none)"]
    cases = [bench.ppp_case(name, iterations, int(cpu_moves)) for name in chosen]
    env = bench.settings_header(searches, iterations, repeats, int(cpu_moves))

    def on_row(rows: list[dict], clusters: list[dict]) -> None:  # a run cut short keeps the cells measured
        row = rows[-1]
        err_console.print(f"{row['instance']} {row['column']}: {row['seconds']:.2f} s for {row['searches']} x "
                          f"{row['iterations']:,} iterations", highlight=False)
        bench.write_report(rows, clusters, notes, env, output)

    try:
        rows, clusters = bench.run(cases, counts, has_gpu, bench.Settings(searches, repeats), output, on_row)
    except KeyboardInterrupt:
        err_console.print(f"interrupted: the cells measured so far are in {output}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    show_report(bench.write_report(rows, clusters, notes, env, output), output / "cluster.csv")


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


def bench_batch(
    instances: Annotated[str, typer.Option(help="Comma-separated flowshop, QAP and TSP instances, or all.")] = "all",
    sizes: Annotated[str, typer.Option(help="Comma-separated numbers of searches per batch.")] = "1,8,64,512,4096",
    iterations: Annotated[int, typer.Option("--iterations", "-i", min=1, help="Tabu steps per search (the CPU "
                                            "runs a tenth of them).")] = 1000,
    repeats: Annotated[int, typer.Option(min=1, help="Timed batches per cell: median and range reported.")] = 3,
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


def bench_anytime(
    cases: Annotated[str, typer.Option(help="Comma-separated cases (200_20_01 PLS-≠, 020_10_01 tabu, pcb3038 "
                                       "ILS-3opt to 0.2 %), by number 1-3, or all.")] = "all",
    backend: Annotated[str, typer.Option("--backend", "-b", help="gpu or cpu (ILS-3opt: its strategy's).")] = "gpu",
    repeats: Annotated[int, typer.Option(min=1, help="Runs of each variant; medians and ranges are reported.")] = 5,
    small: Annotated[bool, typer.Option(help="Small sizes (a smoke run on the CPU).")] = False,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "anytime",
):
    """What the trace and checkpoints cost: each case without them, with the trace, with checkpoints every 10 s."""
    import pandas as pd

    from mols.bench import anytime as bench

    names = list(bench.CASES)
    chosen = names if cases == "all" else [names[int(c) - 1] if c.strip().isdigit() and 0 < int(c) <= len(names)
                                           else _unknown_case(c, names) for c in cases.split(",")]
    with advancing(len(chosen) * len(bench.VARIANTS)) as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output)
        df = bench.run(chosen, backend, repeats, small, on_row=kept([], write, advance))
    show_report(*bench.write_report(df, output))


def _unknown_case(text: str, names: list[str]) -> None:
    raise MolsError(f"--cases: {text!r} is none of 1-{len(names)} ({', '.join(names)}) or all")


COMMANDS = {"anytime": bench_anytime, "cluster": bench_cluster, "ils3opt": bench_ils3opt, "multistart": bench_multistart, "natural-end": bench_natural_end, "pymoo": bench_pymoo, "batch": bench_batch}
