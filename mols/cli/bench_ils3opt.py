"""`mols bench ils3opt`: its options checked, the rows or the paper's cells run, and the report written again
after each."""

from __future__ import annotations

from pathlib import Path

from mols.bench.common import choose, parse_counts
from mols.cli.console import advancing, kept, show_report
from mols.errors import MolsError


def paper_tables(instances: str, solvers: str | None, populations: str, trials: int | None, time_cap: float | None,
                 twin: int, sequential: str, rkbi_blocks: str, output: Path, twin_runs: int | None = None) -> None:
    """The paper's Tables 1-3 cells asked for, and the sequential validation where asked (ils3opt_tables.py);
    the report is written again after each cell, so a run killed by a time limit keeps the cells done."""
    import pandas as pd

    from mols.backends import gpu_available
    from mols.bench import ils3opt_tables as tables
    from mols.bench.ils3opt_paper import INSTANCES

    chosen = choose(instances, INSTANCES, "--instances")
    if solvers == "none":
        chosen_solvers = []
    elif solvers:
        chosen_solvers = choose(solvers, tables.SOLVERS, "--solvers")
    else:
        chosen_solvers = list(tables.SOLVERS[:4] if gpu_available() else tables.SOLVERS[4:])
    sizes = parse_counts(populations, "--populations")
    checks = [] if sequential == "none" else choose(sequential, tables.SEQUENTIAL, "--sequential")
    if rkbi_blocks not in ("paper", "auto"):
        raise MolsError(f"--rkbi-blocks: paper or auto, got {rkbi_blocks!r}")
    if not chosen_solvers and not checks:
        raise MolsError("--solvers none with --sequential none: nothing to measure")
    planned = len(tables.cells(chosen, chosen_solvers, sizes))
    settings = {"trials": trials or "the paper's (20 below 1,000 cities, 10 above)",
                "time cap": f"{time_cap:g} s a trial" if time_cap else "none", "twin": f"{twin} solutions"
                + (f" of the first {twin_runs} trials" if twin_runs else ""), "rkbi blocks": rkbi_blocks}

    def write(done: pd.DataFrame, checked: pd.DataFrame) -> Path:
        return tables.write_report(done, checked, output, settings, tables.cut_note(planned, done, trials, time_cap))

    with advancing(planned) as advance:
        on_row = kept([], lambda rows: write(pd.DataFrame(rows), pd.DataFrame()), advance)
        done = tables.run_tables(chosen, chosen_solvers, sizes, trials, time_cap, twin, rkbi_blocks, on_row,
                                 twin_runs)
    checked = tables.run_sequential(chosen, checks, trials, time_cap)
    print(tables.cut_note(planned, done, trials, time_cap), flush=True)
    show_report(write(done, checked))


def plain_tables(instances: str, solvers: str | None, populations: str, cpu_populations: str | None, runs: int,
                 cpu_runs: int | None, iterations: int, time_cap: float | None, cpu_time: float | None,
                 gap: float | None, twin: int, twin_runs: int | None, island: int, output: Path) -> None:
    """`mols bench ils3opt` without --paper: the rows asked for, the report written again after each (Ctrl-C ends
    `mols` at once: the report then holds the rows done)."""
    import pandas as pd

    from mols.bench import ils3opt as bench
    from mols.bench.ils3opt_paper import INSTANCES

    time_cap = 60.0 if time_cap is None else time_cap
    chosen = choose(instances, INSTANCES, "--instances")
    chosen_solvers = choose(solvers, bench.SOLVERS, "--solvers") if solvers else bench.default_solvers()
    sizes = parse_counts(populations, "--populations")
    cpu_sizes = parse_counts(cpu_populations, "--cpu-populations") if cpu_populations else sizes
    cpu_time = time_cap if cpu_time is None else cpu_time
    cells = sum(len(cpu_sizes if s in bench.CPU_SOLVERS else sizes) for s in chosen_solvers) * len(chosen)
    shown_runs = runs if cpu_runs in (None, runs) else f"{runs} (cpu1 and cpu: {cpu_runs})"
    settings = {"runs": shown_runs, "it_total": f"{iterations:,}", "time cap": f"{time_cap:g} s",
                "cpu time cap": f"{cpu_time:g} s",
                "target": "the issue's gap per instance" if gap is None else f"{gap:g} % above the optimum",
                "twin": f"{twin} solutions" if twin else "none", "merged islands": f"{island} solutions"}
    with advancing(cells) as advance:
        on_row = kept([], lambda rows: bench.write_report(bench.with_speedups(pd.DataFrame(rows)), output, settings),
                      advance)
        df = bench.run(chosen, chosen_solvers, sizes, cpu_sizes, runs, iterations, time_cap, cpu_time, gap,
                       on_row=on_row, twin=twin, island=island, cpu_runs=cpu_runs, twin_runs=twin_runs)
    show_report(*bench.write_report(df, output, settings))


def combine_tables(folder: Path, output: Path) -> None:
    """One report of the parts' cells under folder (`mols bench ils3opt --paper` runs of parts of the tables)."""
    import pandas as pd

    from mols.bench import ils3opt_paper as paper
    from mols.bench import ils3opt_tables as tables

    if not any(folder.rglob("ils3opt_paper.csv")):
        raise MolsError(f"--combine: no ils3opt_paper.csv under {folder} (the folder of `--paper` runs' reports)")
    done = tables.read_parts(folder)
    cut = tables.cut_note(paper.CELLS, done, None, None).replace(" asked", "")
    settings = {"parts": f"every ils3opt_paper.csv under {folder.name}/ (trials and caps: each cell's columns)"}
    show_report(tables.write_report(done, pd.DataFrame(), output, settings, cut, tables.measured_on(folder)))


def only_with_paper(trials: int | None, sequential: str, rkbi_blocks: str, combine: Path | None = None) -> None:
    """MolsError naming the first --paper option given without --paper."""
    for name, given in (("--trials", trials is not None), ("--sequential", sequential != "none"),
                        ("--rkbi-blocks", rkbi_blocks != "paper"), ("--combine", combine is not None)):
        if given:
            raise MolsError(f"{name}: runs with --paper only")
