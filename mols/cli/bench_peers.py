"""`mols bench peers`: mols against fast-tsp, LKH-3 (elkai), CMA-ES, scipy's dual annealing and pymoo's NSGA-II/III
at equal wall-clock budgets; its flags checked here, the bench in mols/bench/peers.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from mols.bench.common import BENCH_OUT, choose, parse_counts
from mols.cli.console import BENCH_OUTPUT, SeedsOpt, advancing, err_console, show_report
from mols.errors import MolsError, OptionError


def bench_peers(
    domains: Annotated[str, typer.Option(help="Comma-separated: tsp, continuous, flowshop, qap, or all.")] = "all",
    instances: Annotated[str, typer.Option(help="Comma-separated TSP instances with a known optimum (mols instances "
                                           "-p tsp).")] = "pcb3038,rat783,fl1577,fnl4461",
    dimensions: Annotated[str, typer.Option(help="Comma-separated dimensions of the Weierstrass function.")
                          ] = "10,100",
    flowshop: Annotated[str, typer.Option(help="Comma-separated flowshop instances (mols instances), run with two "
                                          "objectives, makespan and tardiness.")] = "200_20_01",
    qap: Annotated[str, typer.Option(help="Comma-separated QAP instances with a best known value (Taillard's).")
                   ] = "tai50a,tai100a",
    budgets: Annotated[str, typer.Option(help="Comma-separated wall-clock budgets in seconds, the same for every "
                                         "contestant.")] = "1,2,5,10,20",
    seeds: SeedsOpt = 5,
    backend: Annotated[str, typer.Option("--backend", "-b", help="auto, cpu or gpu: where mols runs (the cpu "
                                         "backend runs each domain's CPU search, small).")] = "auto",
    gpus: Annotated[int, typer.Option(min=1, help="mols' runs one per GPU at a time, in a process each (1: one "
                                      "after another in this process).")] = 1,
    lkh_timeout: Annotated[float, typer.Option(min=0.01, help="Seconds LKH-3 (elkai) may take per instance before "
                                               "it is stopped.")] = 60.0,
    fast_tsp_threads: Annotated[int, typer.Option(min=1, help="fast-tsp's threads (0.2 or newer): above 1, its runs "
                                                  "go one at a time, after the others.")] = 1,
    output: Annotated[Path, typer.Option("--output", "-o", help=BENCH_OUTPUT)] = BENCH_OUT / "peers",
):
    """mols against the solvers users install instead, at the same budgets: TSP gaps against fast-tsp and LKH-3,
    Weierstrass gaps against CMA-ES and dual annealing, flowshop hypervolumes against NSGA-II/III; per budget the
    median (range) over seeds, and the time to each target."""
    from mols.backends import BackendSpec
    from mols.bench import peers as bench
    from mols.bench.peers_jobs import Settings
    from mols.bench.peers_report import write_report
    from mols.environment import environment

    plan = domain_plan(choose(domains, bench.DOMAINS, "--domains"), instances, dimensions, flowshop, qap)
    device = BackendSpec(choose(backend, ("auto", "cpu", "gpu"), "--backend")[0]).resolved().device
    check_gpus(gpus, device)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    settings = Settings(parse_budgets(budgets), seeds, device, gpus, lkh_timeout, cores, fast_tsp_threads)
    env = environment()
    with advancing(None, "runs") as advance:
        def on_record(records: list[dict], skipped: list[str]) -> None:  # Ctrl-C ends mols at once: keep these
            write_report(records, plan, settings, skipped, env, output)
            advance()

        records, skipped = bench.run(plan, settings, on_record)
    for line in skipped:
        err_console.print(line, highlight=False, markup=False)
    show_report(write_report(records, plan, settings, skipped, env, output))


def domain_plan(chosen: list[str], instances: str, dimensions: str, flowshop: str, qap: str = "tai50a"
                ) -> dict[str, list[str]]:
    """Each chosen domain's instances, checked against their flags."""
    from mols.problems import load_problem
    from mols.problems.tsp.instance import optimal_lengths
    from mols.problems.weierstrass.instance import MAX_DIMENSION

    plan = {}
    if "tsp" in chosen:
        plan["tsp"] = choose(instances, sorted(optimal_lengths()), "--instances")
    if "continuous" in chosen:
        sizes = parse_counts(dimensions, "--dimensions")
        if max(sizes) > MAX_DIMENSION:
            raise MolsError(f"--dimensions: at most {MAX_DIMENSION}, got {dimensions!r}")
        plan["continuous"] = [str(n) for n in dict.fromkeys(sizes)]
    if "flowshop" in chosen:
        plan["flowshop"] = [name.strip() for name in flowshop.split(",") if name.strip()]
        for name in plan["flowshop"] or [flowshop]:
            try:
                load_problem("flowshop", name)
            except MolsError as err:
                raise MolsError(f"--flowshop: {err}") from None
    if "qap" in chosen:
        from mols.bench.qap import best_known

        plan["qap"] = choose(qap, sorted(best_known().index), "--qap")
    return plan


def parse_budgets(text: str) -> tuple[float, ...]:
    from mols.search.options import parse_numbers

    values = parse_numbers(text, "budgets")
    if not values or min(values) <= 0:
        raise OptionError("budgets", f": expected positive seconds separated by commas, got {text!r}")
    return tuple(sorted(set(values)))


def check_gpus(gpus: int, device: str) -> None:
    if gpus == 1:
        return
    from mols.parallel.workers import visible_gpus

    shown = len(visible_gpus()) if device == "gpu" else 0
    if gpus > shown:
        raise MolsError(f"--gpus {gpus}: mols runs on {device} here, and this machine shows {shown} GPU(s)")


COMMANDS = {"peers": bench_peers}
