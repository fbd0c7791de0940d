"""`mols bench qap`: the QAP table of Luong, Melab & Talbi (2009, Table 1; 2013, section 6.1) on this machine, with
the quality found next to the time, then iterated tabu search on tai50a and tai100a (docs/internals.md)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.descent.its import IteratedTabu
from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import Spread, write_tables
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import get_neighborhood
from mols.problems.qap.instance import best_known_costs, read_qaplib, resolve_qap
from mols.problems.qap.model import Qap
from mols.search.base import Search

INSTANCES = ("tai12a", "tai15a", "tai17a", "tai20a", "tai25a", "tai30a", "tai35a", "tai40a", "tai50a", "tai60a",
             "tai64c", "tai80a", "tai100a", "tai150b", "tai256c")  # the paper's Table 1
# backend name -> its spec (the plain CPU evaluates every move in O(n): no Taillard update)
BACKENDS = {"cpu1": BackendSpec("cpu", threads=1), "cpu": BackendSpec("cpu"),
            "cpu1-plain": BackendSpec("cpu", threads=1, incremental=False), "gpu": BackendSpec("gpu"),
            "gpu-hostwalk": BackendSpec("gpu", device_walk=False)}
ITS_INSTANCES = ("tai50a", "tai100a")
# The 2009 paper's Table 1, configuration 3 (Core 2 Quad and GTX 280, texture memory), in seconds.
PAPER_SECONDS = {"tai12a": (0.1, 0.5), "tai15a": (0.2, 0.6), "tai17a": (0.3, 0.6), "tai20a": (0.4, 0.7),
                 "tai25a": (0.8, 0.7), "tai30a": (1.5, 0.8), "tai35a": (2.3, 0.9), "tai40a": (3.5, 1.1),
                 "tai50a": (6.8, 1.3), "tai60a": (11, 1.6), "tai64c": (14, 1.6), "tai80a": (29, 2.7),
                 "tai100a": (61, 3.5), "tai150b": (228, 12), "tai256c": (1186, 56)}
SWAP = get_neighborhood("swap")


def default_backends() -> list[str]:
    return [b for b in BACKENDS if BACKENDS[b].device != "gpu" or gpu_available()]


def best_known() -> pd.Series:
    return pd.Series(best_known_costs(), name="best_known")


def _runs(make: Callable[[np.random.Generator], Search], seeds: int) -> tuple[list[float], list[int]]:
    """Wall seconds and best costs of the searches make(rng) seeded 0 .. seeds - 1."""
    seconds, costs = [], []
    for seed in range(seeds):
        result = make(np.random.default_rng(seed)).run()
        if result.status != "completed":
            raise MolsError(f"a benchmark run did not complete ({result.status}): {result.error}")
        seconds.append(result.wall_seconds)
        costs.append(int(result.archive.F.min()))
    return seconds, costs


def tabu_rows(instances: list[str], backends: list[str], iterations: int, plain_iterations: int, seeds: int,
              on_row: Callable[[dict], None] = lambda row: None) -> list[dict]:
    bks = best_known()
    rows = []
    for name in instances:
        instance = read_qaplib(resolve_qap(name, "qap"))
        problem = Qap(instance)
        for backend in backends:
            ev = prepare(problem, SWAP, BACKENDS[backend])
            budget = iterations if BACKENDS[backend].incremental else min(iterations, plain_iterations)
            seconds, costs = _runs(partial(AggregatedTabu, problem, SWAP, ev, budget), seeds)
            time = Spread.of(seconds)
            row = {"instance": name, "n": instance.n, "backend": backend, "device": ev.device,
                   "iterations": budget, "budget": iterations, **time.columns("seconds"),
                   **(time * (1e3 / budget)).columns("ms_per_iteration"),
                   **(time * (iterations / budget)).columns("seconds_full_budget"), "estimated": budget < iterations,
                   "best_cost": min(costs), "median_cost": statistics.median(costs), "best_known": int(bks[name]),
                   "gap_percent": 100 * (min(costs) / bks[name] - 1), "seeds": seeds,
                   "paper_cpu_s": PAPER_SECONDS[name][0], "paper_gpu_s": PAPER_SECONDS[name][1]}
            rows.append(row)
            on_row(row)
    return rows


def its_rows(iterations: dict[str, int], backends: list[str], seeds: int,
             on_row: Callable[[dict], None] = lambda row: None) -> list[dict]:
    """Iterated tabu search with its defaults: iterations[instance] per run."""
    bks = best_known()
    rows = []
    for name, backend in ((name, backend) for name in iterations for backend in backends):
        problem = Qap(read_qaplib(resolve_qap(name, "qap")))
        seconds, costs = _runs(partial(IteratedTabu, problem, SWAP, prepare(problem, SWAP, BACKENDS[backend]),
                                       iterations[name]), seeds)
        row = {"instance": name, "n": problem.n, "backend": backend, "iterations": iterations[name],
               **Spread.of(seconds).columns("seconds"), "best_cost": min(costs),
               "worst_cost": max(costs), "best_known": int(bks[name]),
               "best_gap_percent": 100 * (min(costs) / bks[name] - 1),
               "worst_gap_percent": 100 * (max(costs) / bks[name] - 1), "seeds": seeds}
        rows.append(row)
        on_row(row)
    return rows


def write_report(tabu: list[dict], its: list[dict], env: dict[str, str], folder: Path) -> Path:
    """qap.md, qap_tabu.csv and qap_its.csv in folder; the Markdown file's path."""
    return write_tables(folder, {"qap_tabu.csv": tabu, "qap_its.csv": its}, ("qap.md", render_markdown(tabu, its, env)))


def render_markdown(tabu: list[dict], its: list[dict], env: dict[str, str]) -> str:
    budget = tabu[0]["budget"] if tabu else 0
    table = [{"instance": r["instance"], "n": r["n"], "backend": r["backend"],
              "iterations run": f"{r['iterations']:,}", "ms / iteration": Spread.read(r, "ms_per_iteration").text(".3f"),
              f"s for {budget:,}": Spread.read(r, "seconds_full_budget").text(".2f") + (" est." if r["estimated"] else ""),
              "best cost": f"{r['best_cost']:,}", "gap to best known": f"{r['gap_percent']:.2f} %",
              "paper CPU / GPU s": f"{r['paper_cpu_s']:g} / {r['paper_gpu_s']:g}"} for r in tabu]
    text = ("# QAP: tabu search, CPU against GPU (Luong et al. 2009, Table 1)\n\n"
            "Made by `mols bench qap`. Tabu search on the swap neighborhood (tenure n, aspiration) from a "
            "random start; time = wall time, the median over the seeds and in brackets the fastest and slowest "
            "seed, compilation excluded. gpu: the tabu walk runs "
            "on the device, 64 steps per CUDA graph; gpu-hostwalk: the same kernels, one round trip per step and "
            "the move applied on the host. cpu1 / cpu: Numba "
            "on 1 core / all cores with Taillard's update of the deltas (O(n^2) per iteration); cpu1-plain: "
            "1 core, the O(n) delta of every move (O(n^3) per iteration, like the GPU kernel and the papers' "
            "CPU). \"est.\": a shorter cpu1-plain run, scaled to the full budget at its measured rate. Best cost: "
            "the best of the seeds; gap against qap_bks.csv (today's best known values). Paper: Core 2 Quad "
            "Q6600 / GTX 280 with texture memory (configuration 3).\n\n"
            f"{markdown_list(env)}\n\n{markdown_table(table) if table else '(no tabu runs)'}\n")
    if its:
        rows = [{"instance": r["instance"], "backend": r["backend"], "iterations": f"{r['iterations']:,}",
                 "seeds": r["seeds"], "s": Spread.read(r, "seconds").text(".1f"),
                 "best cost": f"{r['best_cost']:,}", "gap best / worst seed":
                 f"{r['best_gap_percent']:.2f} % / {r['worst_gap_percent']:.2f} %"} for r in its]
        text += ("\n## Iterated tabu search\n\nDefaults: tabu runs of 10 n iterations (tenure n / 2), each "
                 "from the best solution so far after n / 5 random swaps.\n\n" + markdown_table(rows) + "\n")
    return text
