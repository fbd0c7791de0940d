"""`mols bench ils3opt --paper`: Delévacq et al. 2012's Tables 1-3 cell by cell at the paper's budgets, and its
sequential ILS's quality, each beside the paper's figures (ils3opt_paper.py)."""

from __future__ import annotations

import math
import os
import statistics
from pathlib import Path

import pandas as pd

from mols.algorithms.ils3opt.search import run_ils3opt
from mols.bench import ils3opt_paper as paper
from mols.bench.common import write_tables
from mols.bench.ils3opt import row
from mols.markdown import markdown_list, markdown_table
from mols.problems.tsp import load_tsp
from mols.problems.tsp.instance import optimal_lengths

SOLVERS = ("fi-thread", "fi-block", "fi-block-shared", "rkbi", "cpu", "cpu-rkbi")  # cpu, cpu-rkbi: the CPU twins
SEQUENTIAL = ("cpu", "cpu-rkbi")  # the sequential validation's searches (Table 1's and Table 3's)

MEASURED = """Each cell runs its trials (seeds 0 .. R - 1) of nbsol solutions at the paper's budget: it_total ILS
iterations split over the solutions (Table 1: 1,048,576; Table 3: the instance's it_total, k samples per step), no
target, unless --time cuts a trial (capped: the trials cut; their Δavg is then not the paper's budget's). rkbi
launches Table 2's blocks per solution (--rkbi-blocks paper) of 128 threads (the paper's: 64), or as many as its
samples take (auto); the tours do not depend on them. speed-up: the twin's (the trial's first --twin solutions again
on one core, same seed and iterations, scaled to nbsol) over the trial's seconds, the median over trials; the
paper's is its CPU's time over its C2050's (--twin-runs N: over the first N trials, where one core would take
hours to repeat every trial). f_req: the share of trials whose best tour is optimal; Δavg: their mean
% above the optimum."""

SEQUENTIAL_NOTE = """Sequential: the paper validated its sequential ILS against Stützle and Hoos and Lourenço et
al. but prints no sequential figure; its nbsol = 1 cells run the same search (one solution, it_total iterations),
so their f_req and Δavg are the sequential ILS's. Ours: one run of --trials independent solutions (a solution
depends on the seed and its index only) on all cores, each making it_total iterations (cpu: Table 1's; cpu-rkbi:
Table 3's); f_req and Δavg over the solutions. The paper gives no time, so ours (ms per iteration a core) stands
alone."""


def cells(instances, solvers, populations) -> list[tuple[str, str, int]]:
    return [(i, s, p) for i in instances for p in populations for s in solvers]


def table_cell(instance: str, solver: str, nbsol: int, trials: int | None, time_cap: float | None, twin: int,
               rkbi_blocks: str, twin_runs: int | None = None) -> dict:
    """One cell of Table 1 (FI) or Table 3 (rkbi): the bench's row at the paper's budget, the paper's figures beside."""
    n = load_tsp(instance).n
    spend = paper.budget(solver, instance, nbsol)
    blocks = spend["blocks"] if rkbi_blocks == "paper" else None
    done = row(instance, solver, nbsol, trials or paper.trials(n), spend["it_total"], time_cap, math.inf,
               twin, blocks=blocks, twin_runs=twin_runs)
    return done | {"table": 3 if solver in paper.RKBI else 1, "label": paper.LABELS[solver],
                   "it_total": spend["it_total"], "k": spend["k"], "paper_blocks": spend["blocks"],
                   "it_lim": math.ceil(spend["it_total"] / nbsol)} | paper.paper(solver, instance, nbsol)


def run_tables(instances, solvers, populations, trials: int | None, time_cap: float | None, twin: int,
               rkbi_blocks: str = "paper", on_row=lambda row: None, twin_runs: int | None = None) -> pd.DataFrame:
    """Every cell, on_row(each cell's row) as it ends (a report of them survives a run killed later); an
    interruption (KeyboardInterrupt) ends it with the cells done so far."""
    rows, planned = [], cells(instances, solvers, populations)
    try:
        for instance, solver, nbsol in planned:
            rows.append(table_cell(instance, solver, nbsol, trials, time_cap, twin, rkbi_blocks, twin_runs))
            on_row(rows[-1])
    except KeyboardInterrupt:
        if not rows:
            raise
        print(f"interrupted: {len(rows)} of {len(planned)} cells", flush=True)
    return pd.DataFrame(rows)


def read_parts(folder: Path) -> pd.DataFrame:
    """The cells of every ils3opt_paper.csv under folder (parts of the tables run apart, one a GPU), in the tables'
    order; a cell found twice keeps the later file's (by path)."""
    from mols.errors import MolsError

    files = sorted(folder.rglob("ils3opt_paper.csv"))
    if not files:
        raise MolsError(f"folder: no ils3opt_paper.csv under {folder}")
    cell = ["table", "instance", "population", "solver"]
    df = pd.concat([pd.read_csv(f) for f in files], ignore_index=True).drop_duplicates(cell, keep="last")
    order = {"instance": paper.INSTANCES, "solver": tuple(paper.LABELS)}
    return df.sort_values(cell, key=lambda c: c.map(order[c.name].index) if c.name in order else c,
                          ignore_index=True)


def sequential_row(instance: str, solver: str, trials: int | None, time_cap: float | None) -> dict:
    """The sequential validation's row of one instance (SEQUENTIAL_NOTE)."""
    problem = load_tsp(instance)
    optimum = optimal_lengths()[problem.instance_name]
    count = trials or paper.trials(problem.n)
    it_total = paper.budget(solver, instance, 1)["it_total"]
    r = run_ils3opt(problem, solver, count, count * it_total, time_cap, None, 0)
    cores = min(count, os.cpu_count() or 1)
    done = {"instance": instance, "solver": solver, "trials": count, "it_total": it_total,
            "per_solution": r.iterations, "capped": r.ended_by == "time", "optimum": optimum,
            "lengths": r.lengths.tolist(), "freq": float((r.lengths == optimum).mean()),
            "dev": statistics.mean(100 * (int(x) / optimum - 1) for x in r.lengths), "cores": cores,
            "ms_per_it": 1000 * r.seconds * cores / max(r.total_iterations, 1)} | paper.paper(solver, instance, 1)
    print(done, flush=True)
    return done


def run_sequential(instances, solvers, trials: int | None, time_cap: float | None) -> pd.DataFrame:
    return pd.DataFrame([sequential_row(i, s, trials, time_cap) for i in instances for s in solvers])


def _paper(value, fmt: str) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, fmt)


def render_tables(df: pd.DataFrame) -> str:
    """Tables 1-3's cells, ours beside the paper's."""
    rows = [{"table": r["table"], "instance": r["instance"], "nbsol": r["population"],
             "strategy": f"{r['label']} ({r['solver']})", "trials": r["runs"],
             "it_total / k": f"{r['it_total']:,} / " + _paper(r["k"], ",.0f"),
             "blocks (Table 2)": _paper(r["blocks"], ".0f") + f" ({_paper(r['paper_blocks'], '.0f')})",
             "it/solution (it_lim)": f"{r['per_solution']:,.0f} ({r['it_lim']:,})",
             "capped": f"{r['capped']}/{r['runs']}", "seconds": f"{r['seconds']:.2f}",
             "speed-up": _paper(r.get("twin_speedup"), ".2f"), "paper": _paper(r["paper_speedup"], ".2f"),
             "f_req": f"{r['freq']:.2f}", "paper f_req": _paper(r["paper_freq"], ".2f"),
             "Δavg %": f"{r['dev']:.3f}", "paper Δavg %": _paper(r["paper_dev"], ".3f"),
             "equal": {True: "yes", False: "NO"}.get(r.get("twin_equal"), "")}
            for r in df.to_dict("records")]
    return markdown_table(rows)


def render_sequential(df: pd.DataFrame) -> str:
    rows = [{"instance": r["instance"], "search": r["solver"], "trials": r["trials"],
             "it/solution (it_total)": f"{r['per_solution']:,} ({r['it_total']:,})",
             "capped": "yes" if r["capped"] else "no", "ms/iteration (a core)": f"{r['ms_per_it']:.3f}",
             "f_req": f"{r['freq']:.2f}", "paper f_req (nbsol 1)": _paper(r["paper_freq"], ".2f"),
             "Δavg %": f"{r['dev']:.3f}", "paper Δavg % (nbsol 1)": _paper(r["paper_dev"], ".3f")}
            for r in df.to_dict("records")]
    return markdown_table(rows)


def cut_note(planned: int, done: pd.DataFrame, trials: int | None, time_cap: float | None) -> str:
    """What this run left out of the paper's tables (printed, and in the report)."""
    asked = f"{len(done)} cells of {planned} asked"
    cuts = [asked + " (the paper's tables: 5 instances x 5 nbsol x 4 strategies, BS on pcb3038 absent)"]
    if trials is not None:
        cuts.append(f"{trials} trials a cell (the paper: 20 below 1,000 cities, 10 above)")
    capped = int(done["capped"].sum()) if len(done) else 0
    if time_cap is not None:
        cuts.append(f"trials capped at {time_cap:g} s: {capped} cut short of the paper's it_total")
    return "Cut: " + "; ".join(cuts) + "."


def measured_on(folder: Path) -> str:
    """The machine's lines of the first report under folder (what its parts ran on)."""
    first = min(folder.rglob("ils3opt_paper.md")).read_text().split("\n\n")
    return next(block for block in first if block.startswith("- "))


def write_report(tables: pd.DataFrame, sequential: pd.DataFrame, folder: Path, settings: dict, cut: str,
                 machine: str | None = None) -> Path:
    """folder/ils3opt_paper.md, and the CSVs of both tables (every column); machine: the environment's lines
    (default: this machine's)."""
    from mols.environment import environment

    parts = ["# ILS-3opt against Delévacq et al. 2012, Tables 1-3 (`mols bench ils3opt --paper`)\n",
             f"Paper's figures: {paper.SOURCE}.\n", (machine or markdown_list(environment())) + "\n",
             "Settings: " + ", ".join(f"{k} {v}" for k, v in settings.items()) + ".\n", cut + "\n"]
    if len(tables):
        parts += ["## Tables 1 and 3 (Table 2: the blocks column)\n", MEASURED + "\n", render_tables(tables) + "\n"]
    if len(sequential):
        parts += ["## The sequential ILS\n", SEQUENTIAL_NOTE + "\n", render_sequential(sequential) + "\n"]
    return write_tables(folder, {"ils3opt_paper.csv": tables, "ils3opt_sequential.csv": sequential},
                        ("ils3opt_paper.md", "\n".join(parts)))
