"""`mols bench ils3opt`: Delévacq et al. 2012's Tables 1 and 3 on the machine at hand: ILS-3opt on kroA100,
lin318, rat783, fl1577 and pcb3038, our Numba reference on 1 core (cpu1) and all cores (cpu) against the GPU
strategies, in one run.

Each run of a row (seeds 0 .. R - 1) makes the paper's it_total ILS iterations split over the population
(--iterations), unless it reaches the target first (a tour within --gap % of the optimum; 0: the optimum) or
its time cap (--time; cpu1 and cpu: --cpu-time). A row gives:
- freq: the share of runs whose best tour is optimal, and dev: their average deviation from the optimum (%)
  (the paper's f_req and ∆avg);
- reached: runs that reached the target, and t_target: the median seconds they took (time to quality);
- it/s: ILS iterations per second of search (the runs' totals over their seconds); speed-up: that rate
  over cpu1's on the same instance and population (the paper's speed-up: time of the same iterations, on
  1 core over the strategy's; where cpu1 hit its cap, its rate comes from the iterations it made);
- q-speed-up: cpu1's median t_target over the row's, where both reached the target in every run: the
  speed-up at equal quality.
Seconds are search time (candidate lists, start tours, descents and iterations); compilation stays out.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pandas as pd

from mols.bench.common import write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.problems.tsp import load_tsp
from mols.problems.tsp.instance import optimal_lengths
from mols.search.ils3opt import DEFAULT_ITERATIONS, run_ils3opt

INSTANCES = ("kroA100", "lin318", "rat783", "fl1577", "pcb3038")
SOLVERS = {"cpu1": ("cpu", 1), "cpu": ("cpu", None), "fi-thread": ("fi-thread", None),
           "fi-block": ("fi-block", None), "fi-block-shared": ("fi-block-shared", None)}
CPU_SOLVERS = ("cpu1", "cpu")


def default_solvers() -> list[str]:
    from mols.backends import gpu_available

    return list(SOLVERS) if gpu_available() else list(CPU_SOLVERS)


def row(instance: str, solver: str, population: int, runs: int, iterations: int, time_cap: float,
        gap: float) -> dict:
    """R runs of one configuration, summed up (module docstring)."""
    problem = load_tsp(instance)
    optimum = optimal_lengths()[problem.instance_name]
    target = math.floor(optimum * (1 + gap / 100))
    strategy, threads = SOLVERS[solver]
    results = [run_ils3opt(problem, strategy, population, iterations, time_cap, target, seed, threads)
               for seed in range(runs)]
    reached = [r.reached_seconds for r in results if r.reached_seconds is not None]
    done = {"instance": instance, "n": problem.n, "solver": solver, "population": population, "runs": runs,
            "freq": sum(r.best == optimum for r in results) / runs,
            "dev": statistics.mean(100 * (r.best / optimum - 1) for r in results),
            "reached": len(reached), "t_target": statistics.median(reached) if reached else math.nan,
            "seconds": statistics.median(r.seconds for r in results),
            "capped": sum(r.ended_by == "time" for r in results),
            "it_per_s": sum(r.total_iterations for r in results) / sum(r.seconds for r in results),
            "best": min(r.best for r in results), "optimum": optimum, "target": target}
    print(done, flush=True)  # as it comes: a long benchmark shows its progress
    return done


def run(instances, solvers, populations, runs: int, iterations: int, time_cap: float, cpu_time: float,
        gap: float, on_row=lambda: None) -> pd.DataFrame:
    rows = []
    for instance in instances:
        for population in populations:
            for solver in solvers:
                cap = cpu_time if solver in CPU_SOLVERS else time_cap
                rows.append(row(instance, solver, population, runs, iterations, cap, gap))
                on_row()
    return with_speedups(pd.DataFrame(rows))


def with_speedups(df: pd.DataFrame) -> pd.DataFrame:
    """speed-up and q-speed-up against cpu1 on the same instance and population (NaN where it did not run)."""
    base = df[df["solver"] == "cpu1"].set_index(["instance", "population"])
    keys = list(zip(df["instance"], df["population"]))
    rate = [base["it_per_s"].get(key, math.nan) for key in keys]
    df["speedup"] = df["it_per_s"] / rate
    equal = [base["reached"].get(key, -1) == base["runs"].get(key) and r == df["runs"].iloc[i]
             for i, (key, r) in enumerate(zip(keys, df["reached"]))]
    cpu_t = [base["t_target"].get(key, math.nan) for key in keys]
    df["q_speedup"] = [c / t if ok and t > 0 else math.nan for c, t, ok in zip(cpu_t, df["t_target"], equal)]
    return df


def write_report(df: pd.DataFrame, folder: Path, settings: dict) -> tuple[Path, Path]:
    """folder/ils3opt.md and .csv."""
    return write_report_files(df, folder, "ils3opt", lambda df, env: render(df, env, settings))


def _num(value: float, fmt: str) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, fmt)


def render(df: pd.DataFrame, env: dict, settings: dict) -> str:
    rows = [{"instance": r["instance"], "nbsol": r["population"], "solver": r["solver"],
             "freq": f"{r['freq']:.2f}", "dev %": f"{r['dev']:.3f}", "reached": f"{r['reached']}/{r['runs']}",
             "t_target s": _num(r["t_target"], ".2f"), "seconds": f"{r['seconds']:.2f}",
             "capped": f"{r['capped']}/{r['runs']}", "it/s": f"{r['it_per_s']:,.0f}",
             "speed-up": _num(r["speedup"], ".2f"), "q-speed-up": _num(r["q_speedup"], ".1f")}
            for r in df.to_dict("records")]
    text = ", ".join(f"{key} {value}" for key, value in settings.items())
    return "\n".join([
        "# ILS-3opt (`mols bench ils3opt`), after Delévacq et al. 2012, Tables 1 and 3\n",
        markdown_list(env) + "\n",
        f"Settings: {text}.\n",
        (__doc__.split("\n\n", 1)[1] if __doc__ else "") + "\n",
        markdown_table(rows) + "\n",
    ])

