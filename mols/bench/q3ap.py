"""`mols bench q3ap`: the Q3AP experiments of Luong, Loukil, Melab & Talbi (2010) on this machine: Table I (ILS-TS),
then the two neighborhoods at equal evaluations on nug15, Fig. 2 (q3ap_fig2.py; docs/internals.md)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mols.algorithms.descent.its import IteratedTabu
from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import BackendSpec, prepare
from mols.bench.common import Spread, write_tables
from mols.bench.q3ap_fig2 import plot_curves, render_section, run_backend, spread
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods.pair_swaps import ADVANCED
from mols.problems.q3ap import load_q3ap
from mols.problems.q3ap.instance import best_known

INSTANCES = ("nug12", "nug15", "nug18", "nug22")  # the paper's, less nug13 (not in QAPLIB)
PAPER = {"nug12": (580, 98, 256, 113), "nug13": (1912, 74, 1879, 476), "nug15": (2230, 100, 1360, 283),
         "nug18": (17836, 62, 17447, 3130), "nug22": (42476, 100, 16147, 2647)}  # best, hits %, CPU s, GPU s
ONE_CORE = BackendSpec("cpu", threads=1)


def one_core_rate(problem, iterations: int) -> float:
    """Seconds per tabu iteration of the advanced neighborhood on one CPU core (compilation excluded)."""
    search = AggregatedTabu(problem, ADVANCED, prepare(problem, ADVANCED, ONE_CORE), iterations,
                            np.random.default_rng(0), weights=(1.0,))
    result = search.run()
    return result.wall_seconds / iterations


def table_rows(instances: list[str], runs: int, ils: int, ts: int, cpu_iterations: int,
               on_row: Callable[[dict], None] = lambda row: None) -> list[dict]:
    """Table I's rows: one per instance."""
    bks, spec, rows = best_known(), run_backend(), []
    for name in instances:
        if name not in bks:
            raise MolsError(f"--instances: {name} has no best-known value in instances/q3ap/q3ap_bks.csv")
        problem = load_q3ap(name)
        ev = prepare(problem, ADVANCED, spec)
        costs, seconds, rounds, iterations = [], [], [], []
        for seed in range(runs):
            search = IteratedTabu(problem, ADVANCED, ev, ils * ts, np.random.default_rng(seed), run_length=ts,
                                  target=bks[name])
            result = search.run()
            if result.status != "completed":
                raise MolsError(f"a benchmark run did not complete ({result.status}): {result.error}")
            costs.append(int(result.archive.F.min()))
            seconds.append(result.wall_seconds)
            iterations.append(result.iterations)
            rounds.append(math.ceil(result.iterations / ts))
        rate = one_core_rate(problem, cpu_iterations)
        cpu = [rate * it for it in iterations]
        row = {"instance": name, "n": problem.n, "best_known": bks[name], "runs": runs, "ils": ils, "ts": ts,
               "backend": ev.label, "device": ev.device, "tenure": search.tenure,
               "mean_cost": statistics.mean(costs), "sd_cost": spread(costs), "max_cost": max(costs), "min_cost": min(costs),
               "hits": sum(c <= bks[name] for c in costs), "mean_s": statistics.mean(seconds), "sd_s": spread(seconds),
               **Spread.of(seconds).columns("seconds"), "cpu1_ms_per_iteration": 1e3 * rate,
               "cpu1_mean_s_est": statistics.mean(cpu), "cpu1_sd_s_est": spread(cpu),
               **Spread.of(cpu).columns("cpu1_s_est"), **Spread.of(cpu).over(Spread.of(seconds)).columns("acceleration"),
               "mean_ils": statistics.mean(rounds), "sd_ils": spread(rounds), "mean_iterations": statistics.mean(iterations)}
        rows.append(row)
        on_row(row)
    return rows


def write_report(table: list[dict], compare: list[dict], env: dict[str, str], folder: Path) -> Path:
    """q3ap.md, q3ap_table.csv, q3ap_compare.csv, and the comparison's curve q3ap_fig2.csv and q3ap_fig2.png, in
    folder; the Markdown file's path."""
    tables = {"q3ap_table.csv": table,
              "q3ap_compare.csv": [{k: v for k, v in r.items() if k != "curve"} for r in compare],
              "q3ap_fig2.csv": [point for r in compare for point in r["curve"]]}
    md = write_tables(folder, tables, ("q3ap.md", render_markdown(table, compare, env)))
    if compare:
        plot_curves(compare, folder / "q3ap_fig2.png")
    return md


def render_markdown(table: list[dict], compare: list[dict], env: dict[str, str]) -> str:
    text = "# Q3AP: the experiments of Luong et al. (2010)\n\nMade by `mols bench q3ap`.\n\n" + markdown_list(env) + "\n"
    if table:
        text += ("\n## ILS-TS with the advanced neighborhood, CPU against GPU (Table I)\n\n"
                 "Instances: instances/q3ap (A = flows, B = E = distances of QAPLIB's Nugent data; not the paper's "
                 "instances, whose construction is unknown: their values are not comparable). Best known: our own long "
                 "runs (q3ap_bks.csv). Time: wall seconds of a run, the median over the runs and in brackets their "
                 "range (q3ap_table.csv also has the mean and sd), compilation excluded, stopped at the best known; "
                 "acceleration: the medians' ratio, in brackets the ratios of the ranges' ends. cpu1 est.: the run's iterations at the rate measured on one core (the paper also deduces its "
                 "CPU time for nug18 and nug22).\n\n")
    if table:
        r0 = table[0]
        text += (f"ILS iterations at most {r0['ils']}, tabu iterations per ILS iteration {r0['ts']}, "
                 f"{r0['runs']} runs per instance; runs on {r0['backend']} ({r0['device']}).\n\n")
        text += markdown_table([{
            "instance": r["instance"], "best known": r["best_known"],
            "average value": f"{r['mean_cost']:.1f} ({r['sd_cost']:.1f})", "max value": r["max_cost"], "min value": r["min_cost"],
            "hits": f"{r['hits']}/{r['runs']}", f"{r['backend']} s": Spread.read(r, "seconds").text(".2f"),
            "cpu1 ms / iteration": f"{r['cpu1_ms_per_iteration']:.3f}",
            "cpu1 s est.": Spread.read(r, "cpu1_s_est").text(".1f"),
            "acceleration": "x" + Spread.read(r, "acceleration").text(".1f"), "ILS iterations": f"{r['mean_ils']:.1f} ({r['sd_ils']:.1f})",
            "paper: best, hits, CPU s, GPU s": "{}, {} %, {}, {}".format(*PAPER[r["instance"]])} for r in table]) + "\n"
    if compare:
        text += render_section(compare)
    return text
