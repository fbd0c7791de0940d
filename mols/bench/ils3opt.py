"""`mols bench ils3opt`: Delévacq et al. 2012's Tables 1 and 3 on the machine at hand (ILS-3opt, CPU against the GPU
strategies, and merged rounds); MEASURED, printed in the report, says what each column is."""

from __future__ import annotations

import math
import statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mols.algorithms.ils3opt.search import run_ils3opt
from mols.backends.threads import numba_threads
from mols.bench.common import Spread, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import DEFAULT_K, candidate_lists
from mols.problems.tsp.instance import optimal_lengths

MEASURED = """`mols bench ils3opt`: Delévacq et al. 2012's Tables 1 and 3 on the machine at hand: ILS-3opt on kroA100,
lin318, rat783, fl1577 and pcb3038, our Numba reference on 1 core (cpu1) and all cores (cpu) against the GPU
strategies, in one run; rkbi (Table 3) against its own Numba twin on 1 core (cpu1-rkbi), with the paper's k
samples per step; and merged rounds (ils_merge, the -merged solvers: islands of --island solutions that share a
tour) on the CPU and the GPU.

Each run of a row (seeds 0 .. R - 1) makes the paper's it_total ILS iterations split over the population
(--iterations), unless it reaches the target first (a tour within a gap of the optimum: by default the
issue's quality per instance, TARGET_GAPS; --gap G: G % everywhere) or its time cap (--time; cpu1 and cpu:
--cpu-time). cpu1 and cpu may run other populations (--cpu-populations): a 1-core run of 2,048 solutions
spends minutes on its start tours and first descents alone. A row gives:
- freq: the share of runs whose best tour is optimal, and dev: their average deviation from the optimum (%)
  (the paper's f_req and ∆avg);
- reached: runs that reached the target, and t_target: the seconds they took (time to quality);
- it/s: ILS iterations per second of search of each run; speed-up: that rate
  over cpu1's on the same instance and population, else cpu1's with its smallest population there (the
  paper's speed-up: time of the same iterations, on 1 core over the strategy's; where cpu1 hit its cap, its
  rate comes from the iterations it made; runs that stop at their target early count their setup too);
- q-speed-up: the fastest 1-core time to quality over the row's t_target, where the row reached the target in
  every run: the smallest median t_target of the instance's cpu1 and cpu1-merged rows (any population) that
  reached it in every run (rkbi: cpu1-rkbi's), against their own runs (another search, other tours). Where none
  did, their longest time cap over the row's t_target is a lower bound, marked >.
- twin s and twin speed-up (--twin S): the row's own search on 1 core, the paper's speed-up at equal quality.
  Each run's first S solutions are run again on 1 core with the same seed and the iterations each solution made
  (its solutions are independent: solution s depends on the seed and s only); the 1-core time of the whole
  population is the candidate lists' time plus the rest times P / S. twin speed-up: the median over runs of
  that time over the run's seconds; equal: whether the S solutions' best lengths equal the run's. Rows of merged
  rounds (-merged: ils_merge, islands of --island solutions that share a tour) run their first island again (S is
  the island): an island depends on the seed and its solutions only, as a solution does.
Seconds are search time (candidate lists, start tours, descents and iterations); compilation stays out. Times,
rates and twin speed-ups: the median over the runs and in brackets their range; speed-ups and q-speed-ups: the
medians' ratio, in brackets the ratios of the ranges' ends.
"""

TARGET_GAPS = {"kroA100": 0.0, "lin318": 0.0, "rat783": 0.02, "fl1577": 0.01, "pcb3038": 0.2}  # % above the optimum
SOLVERS = {"cpu1": ("cpu", 1), "cpu": ("cpu", None), "fi-thread": ("fi-thread", None),
           "fi-block": ("fi-block", None), "fi-block-shared": ("fi-block-shared", None), "rkbi": ("rkbi", None),
           "cpu1-rkbi": ("cpu-rkbi", 1), "cpu-rkbi": ("cpu-rkbi", None), "cpu1-merged": ("cpu", 1), "cpu-merged": ("cpu", None),
           "fi-block-merged": ("fi-block", None), "fi-block-shared-merged": ("fi-block-shared", None)}
CPU_SOLVERS = ("cpu1", "cpu", "cpu1-rkbi", "cpu-rkbi", "cpu1-merged", "cpu-merged")
ISLAND = 512  # the -merged solvers' solutions per island (--island; the population where it is smaller)
ONE_CORE = ("cpu1", "cpu1-merged")  # q-speed-up's candidates (first improvement on one core)
TWINS = {"rkbi": "cpu-rkbi", "cpu-rkbi": "cpu-rkbi", "cpu1-rkbi": None, "cpu1": None}  # the 1-core strategy of a row's twin (else cpu)
BASELINES = {"rkbi": "cpu1-rkbi", "cpu1-rkbi": "cpu1-rkbi", "cpu-rkbi": "cpu1-rkbi"}  # rkbi compares with its own 1-core twin (Table 3)


def default_solvers() -> list[str]:
    """The first-improvement solvers (rkbi, the paper's Table 3, is asked for by name: it is slow to descend)."""
    from mols.backends import gpu_available

    fi = ["cpu1", "cpu", "fi-thread", "fi-block", "fi-block-shared"]
    return fi if gpu_available() else fi[:2]


def row(instance: str, solver: str, population: int, runs: int, iterations: int, time_cap: float,
        gap: float | None, twin: int = 0, island: int = ISLAND, blocks: int | None = None,
        twin_runs: int | None = None) -> dict:
    """R runs of one configuration, summed up (module docstring); gap None: TARGET_GAPS's (0 elsewhere), inf: no
    target (the whole budget, as the paper's runs); blocks: rkbi's per solution (None: by its samples); twin_runs:
    the twin of the first runs only (None: every run's)."""
    problem = load_tsp(instance)
    optimum = optimal_lengths()[problem.instance_name]
    gap = TARGET_GAPS.get(instance, 0.0) if gap is None else gap
    target = math.floor(optimum * (1 + gap / 100)) if math.isfinite(gap) else None
    strategy, threads = SOLVERS[solver]
    merge = min(island, population) if solver.endswith("-merged") else 0
    results = [run_ils3opt(problem, strategy, population, iterations, time_cap, target, seed, threads, merge=merge,
                           blocks=blocks) for seed in range(runs)]
    reached = [r.reached_seconds for r in results if r.reached_seconds is not None]
    done = {"instance": instance, "n": problem.n, "solver": solver, "population": population, "island": merge,
            "runs": runs,
            "freq": sum(r.best == optimum for r in results) / runs,
            "dev": statistics.mean(100 * (r.best / optimum - 1) for r in results),
            "reached": len(reached), **Spread.of(reached).columns("t_target"),
            **Spread.of(r.seconds for r in results).columns("seconds"),
            "capped": sum(r.ended_by == "time" for r in results),
            **Spread.of(r.total_iterations / r.seconds for r in results).columns("it_per_s"),
            "best": min(r.best for r in results), "optimum": optimum, "gap": gap, "target": target,
            "time_cap": time_cap, "iterations": iterations, "blocks": blocks,
            "per_solution": statistics.mean(r.iterations for r in results)}
    strategy = TWINS.get(solver, "cpu")
    if twin and strategy and threads != 1:
        done |= twin_times(problem, strategy, results[:twin_runs], merge or min(twin, population), merge)
    print(done, flush=True)  # as it comes: a long benchmark shows its progress
    return done


def twin_times(problem, strategy: str, results: list, sample: int, merge: int = 0) -> dict:
    """twin_s, twin_speedup and twin_equal of a row's runs (module docstring; merged rounds: the first island)."""
    with numba_threads(1):
        start = time.perf_counter()
        candidate_lists(problem.xy[0], DEFAULT_K)
        lists = time.perf_counter() - start
    estimates, equal = [], True
    for seed, r in enumerate(results):
        again = run_ils3opt(problem, strategy, sample, r.iterations * sample, None, None, seed, 1, merge=merge)
        equal &= bool(np.array_equal(again.lengths, r.lengths[:sample]))
        estimates.append(lists + (again.seconds - lists) * r.population / sample)
    return {"twin_sample": sample, "twin_runs": len(results), **Spread.of(estimates).columns("twin_s"),
            "twin_equal": equal,
            **Spread.of(t / r.seconds for t, r in zip(estimates, results)).columns("twin_speedup")}


def run(instances, solvers, populations, cpu_populations, runs: int, iterations: int, time_cap: float,
        cpu_time: float, gap: float | None, on_row=lambda row: None, twin: int = 0, island: int = ISLAND,
        cpu_runs: int | None = None, twin_runs: int | None = None) -> pd.DataFrame:
    """Every row (cpu1 and cpu: cpu_runs runs, default runs), on_row(each row) as it ends; an interruption
    (KeyboardInterrupt) ends it with the rows done so far."""
    rows = []
    cells = [(instance, solver, population) for instance in instances for solver in solvers
             for population in (cpu_populations if solver in CPU_SOLVERS else populations)]
    try:
        for instance, solver, population in cells:
            cpu = solver in CPU_SOLVERS
            rows.append(row(instance, solver, population, (cpu_runs or runs) if cpu else runs, iterations,
                            cpu_time if cpu else time_cap, gap, twin, island, twin_runs=twin_runs))
            on_row(rows[-1])
    except KeyboardInterrupt:
        if not rows:
            raise
        print(f"interrupted: {len(rows)} of {len(cells)} rows", flush=True)
    return with_speedups(pd.DataFrame(rows))


def baseline(df: pd.DataFrame, solver: str, instance: str, population: int) -> dict | None:
    """The 1-core row a row compares with (cpu1; rkbi: cpu1-rkbi): same instance and population, else the
    smallest population's."""
    base = BASELINES.get(solver, "cpu1")
    rows = df[(df["solver"] == base) & (df["instance"] == instance)].sort_values("population")
    same = rows[rows["population"] == population]
    chosen = same if len(same) else rows
    return chosen.iloc[0].to_dict() if len(chosen) else None


def quality_base(df: pd.DataFrame, solver: str, instance: str) -> tuple[float, str] | None:
    """The 1-core time to quality a row compares with, and "" or ">" (a lower bound): the smallest median t_target
    of the instance's first-improvement 1-core rows (cpu1, cpu1-merged, any population) whose runs all reached
    it, else the longest time cap of those rows (none reached in every run); rkbi: its own cpu1-rkbi row."""
    names = (BASELINES[solver],) if solver in BASELINES else ONE_CORE
    rows = df[df["solver"].isin(names) & (df["instance"] == instance)]
    if not len(rows):
        return None
    reached = rows[(rows["reached"] == rows["runs"]) & (rows["t_target"] > 0)]
    return (reached["t_target"].min(), "") if len(reached) else (rows["time_cap"].max(), ">")


def with_speedups(df: pd.DataFrame) -> pd.DataFrame:
    """speed-up, q-speed-up and q_bound (">" where q-speed-up is a lower bound) against 1 core (module docstring)."""
    speedup, q_speedup, bound, nothing = [], [], [], Spread.of(())
    for r in df.to_dict("records"):
        base = baseline(df, r["solver"], r["instance"], r["population"])
        speedup.append(Spread.read(r, "it_per_s").over(Spread.read(base, "it_per_s")).columns("speedup")
                       if base is not None and base["it_per_s_min"] > 0 else nothing.columns("speedup"))
        quality = quality_base(df, r["solver"], r["instance"])
        all_reached = r["reached"] == r["runs"] and r["t_target_min"] > 0
        q_speedup.append((Spread.read(r, "t_target").per(quality[0]) if quality and all_reached else nothing)
                         .columns("q_speedup"))
        bound.append(quality[1] if quality and all_reached else "")
    columns = pd.DataFrame([a | b for a, b in zip(speedup, q_speedup)], index=df.index)
    for key in columns:
        df[key] = columns[key]
    df["q_bound"] = bound
    return df


def write_report(df: pd.DataFrame, folder: Path, settings: dict) -> tuple[Path, Path]:
    """folder/ils3opt.md and .csv."""
    return write_report_files(df, folder, "ils3opt", lambda df, env: render(df, env, settings))


def _twin(r: dict) -> dict:
    """The twin's columns of a row (empty where it has none)."""
    if "twin_s" not in r:
        return {}
    if math.isnan(r["twin_s"]):
        return {"twin s": "", "twin speed-up": "", "equal": ""}
    return {"twin s": Spread.read(r, "twin_s").text(",.1f") + f", {r['twin_sample']:g} of {r['population']}",
            "twin speed-up": Spread.read(r, "twin_speedup").text(".1f"), "equal": "yes" if r["twin_equal"] else "NO"}


def render(df: pd.DataFrame, env: dict, settings: dict) -> str:
    rows = [{"instance": r["instance"], "target %": f"{r['gap']:g}", "nbsol": r["population"],
             "solver": r["solver"] + (f" ({r['island']:g})" if r.get("island") else ""),
             "freq": f"{r['freq']:.2f}", "dev %": f"{r['dev']:.3f}", "reached": f"{r['reached']}/{r['runs']}",
             "t_target s": Spread.read(r, "t_target").text(".2f"), "seconds": Spread.read(r, "seconds").text(".2f"),
             "capped": f"{r['capped']}/{r['runs']}", "it/s": Spread.read(r, "it_per_s").text(",.0f"),
             "speed-up": Spread.read(r, "speedup").text(".2f"),
             "q-speed-up": r["q_bound"] + Spread.read(r, "q_speedup").text(".1f"), **_twin(r)}
            for r in df.to_dict("records")]
    text = ", ".join(f"{key} {value}" for key, value in settings.items())
    return "\n".join([
        "# ILS-3opt (`mols bench ils3opt`), after Delévacq et al. 2012, Tables 1 and 3\n",
        markdown_list(env) + "\n",
        f"Settings: {text}.\n",
        MEASURED.split("\n\n", 1)[1] + "\n",
        markdown_table(rows) + "\n",
    ])

