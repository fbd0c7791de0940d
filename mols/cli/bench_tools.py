"""`mols bench` for mols' own pieces: neighborhoods, the archive filter, the GPU techniques, start-up, several
GPUs, and the CPU backend's threads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mols.bench.common import BENCH_OUT, FSP_SIZES, choose, parse_counts
from mols.cli.console import BENCH_OUTPUT, advancing, kept, show_report


def bench_neighborhood(
    sizes: Annotated[str, typer.Option(help="Comma-separated jobs x machines sizes.")] = "all",
    neighborhood: Annotated[str | None, typer.Option(
        "--neighborhood", "-n", help="Comma-separated: insertion, swap, 3exchange, or all (default: insertion,swap, "
        "the paper's).")] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Timed CPU runs per cell: median and range reported.")] = 5,
    gpu_repeats: Annotated[int, typer.Option(min=1, help="Timed GPU runs per cell.")] = 200,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """Neighbors evaluated per second: CPU on 1 core and on all cores, GPU kernel alone and with transfers."""
    import pandas as pd

    from mols.bench import neighborhood as bench
    from mols.neighborhoods import get_neighborhood
    from mols.problems.flowshop.model import Flowshop

    chosen = choose(sizes, FSP_SIZES, "--sizes")
    names = choose(neighborhood or "insertion,swap", Flowshop.neighborhoods, "--neighborhood")
    nbhs = [get_neighborhood(name) for name in names]
    with advancing(len(chosen) * len(nbhs)) as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output)
        df = bench.run(chosen, nbhs, repeats, gpu_repeats, on_row=kept([], write, advance))
    md, csv = bench.write_report(df, output)
    show_report(md, csv)


def bench_archive(
    ns: Annotated[str, typer.Option(help="Comma-separated numbers of candidates.")] = "1000,10000,40000,100000,1000000",
    sizes: Annotated[str, typer.Option(help="Comma-separated archive sizes.")] = "10,100,1000,10000",
    repeats: Annotated[int, typer.Option(min=1, help="Timed calls per case at most: median and range reported.")] = 100,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """The non-dominance filter alone: our GPU filter against moocore, pymoo, BoTorch and the host archive.

    For whole runs with CPU and GPU archiving, see `mols bench fsp --backends gpu,gpu-hostarchive`."""
    import pandas as pd

    from mols.bench import archive as bench

    n_counts, size_counts = parse_counts(ns, "--ns"), parse_counts(sizes, "--sizes")
    with advancing(None) as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output)
        df = bench.run(ns=n_counts, sizes=size_counts, repeats=repeats, on_row=kept([], write, advance))
    md, csv = bench.write_report(df, output)
    show_report(md, csv)


def bench_gpu_techniques(
    cases: Annotated[str, typer.Option(help="Comma-separated: ppp (Hamming 2, 201-217), tsp (swap, d1291), qap "
                                       "(swap, tai100a), flowshop (insertion, 200_20_01), or all.")] = "all",
    repeats: Annotated[int, typer.Option(min=1, help="Iterations timed per measurement; the median is "
                                         "reported.")] = 50,
    quick: Annotated[bool, typer.Option("--quick", help="A quick run: 10 iterations per measurement, one instance "
                                        "per problem in Table 7 (three otherwise).")] = False,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "gpu-techniques",
):
    """The IEEE TC paper's Tables 7-9 on this GPU: host against device generation, device reduction against F
    copied back, the launch tuned in the search (Algorithm 3) against the best fixed launch of its grid, and the
    memory variants."""
    from mols.backends.tuning import TRIALS
    from mols.bench import gpu_techniques as bench
    from mols.bench.gpu_techniques_tables import write_report

    chosen = choose(cases, bench.CASES, "--cases")
    repeats = 10 if quick else repeats
    settings = {"iterations per measurement": repeats, "tuning trials per launch": TRIALS}
    rows = sum(3 + (1 if quick else len(bench.TUNING_CASES[name])) for name in chosen)
    with advancing(rows) as advance:  # the report is rewritten after each case: a run cut short keeps it
        tables = bench.run(chosen, repeats, quick, on_row=advance,
                           on_case=lambda so_far: write_report(so_far, output, settings))
    show_report(write_report(tables, output, settings))


def bench_startup(
    backends: Annotated[str | None, typer.Option(help="Comma-separated backends of the short run: cpu, gpu (default: "
                                                 "both where there is a GPU).")] = None,
    repeats: Annotated[int, typer.Option(min=1, help="Fresh processes per command: median and range reported.")] = 5,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "startup",
):
    """How long a fresh mols process takes: mols --help, import mols, and a 10-iteration
    `mols run 020_10_01 -a tabu` on each backend (warm caches); medians, ranges and the largest imports."""
    from mols.backends import gpu_available
    from mols.bench import startup as bench

    chosen = choose(backends or ("cpu,gpu" if gpu_available() else "cpu"), ("cpu", "gpu"), "--backends")
    with advancing(None, "fresh processes") as advance:
        rows, imports = bench.run(chosen, repeats, on_row=advance)
    show_report(bench.write_report(rows, imports, output, repeats))


def bench_multi_gpu(
    cases: Annotated[str, typer.Option(help="Comma-separated: tsp (2-opt, random:100000:1), ppp (Hamming 3, "
                                       "1301-1317), or all.")] = "all",
    gpus: Annotated[str, typer.Option(help="Comma-separated GPU counts beside one GPU's.")] = "2,4",
    repeats: Annotated[int, typer.Option(min=1, help="Runs per count: median and range reported.")] = 3,
    iterations: Annotated[int | None, typer.Option("--iterations", "-i", min=1, help="Tabu iterations per run "
                                                   "(default: the case's, 30 on the TSP, 5 on the PPP).")] = None,
    small: Annotated[bool, typer.Option(help="Small instances (a smoke run).")] = False,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "multi-gpu",
):
    """One tabu search's neighborhood split over 1, 2 and 4 GPUs (--gpus): ms per iteration side by side, the
    speed-up over one GPU, and whether each count ends with one GPU's solution."""
    from mols.bench import multi_gpu as bench

    chosen, counts = choose(cases, bench.CASES, "--cases"), parse_counts(gpus, "--gpus")
    with advancing(len(chosen) * len({1, *counts})) as advance:
        write = lambda rows: bench.write_report(bench.table(rows), output)
        df = bench.run(chosen, counts, repeats, iterations, small, on_row=kept([], write, advance))
    show_report(*bench.write_report(df, output))


def bench_threads(
    cases: Annotated[str, typer.Option(help="Comma-separated cases, or all.")] = "all",
    busy: Annotated[str, typer.Option(help="Comma-separated numbers of busy processes beside the runs.")] = "0,1",
    repeats: Annotated[int, typer.Option(min=1, help="Runs per cell: median and range reported.")] = 3,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT,
):
    """The CPU backend's default against --threads 1, on an idle machine and beside busy processes."""
    import pandas as pd

    from mols.bench import threads as bench

    chosen = choose(cases, bench.CASES, "--cases")
    loads = parse_counts(busy, "--busy", least=0)
    with advancing(len(chosen) * len(loads)) as advance:
        write = lambda rows: bench.write_report(pd.DataFrame(rows), output, repeats)
        df = bench.run(chosen, loads, repeats, on_row=kept([], write, advance))
    md = bench.write_report(df, output, repeats)
    show_report(md)


COMMANDS = {"threads": bench_threads, "neighborhood": bench_neighborhood, "archive": bench_archive, "gpu-techniques": bench_gpu_techniques,
            "startup": bench_startup, "multi-gpu": bench_multi_gpu}
