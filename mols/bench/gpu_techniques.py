"""`mols bench gpu-techniques`: the GPU techniques of Luong, Melab & Talbi (IEEE TC 2013, Tables 7-9) on this
machine, measured (the report: gpu_techniques_tables.py); MEASURED, printed in the report, says what each table is."""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mols.algorithms.tabu.select import TABU_DTYPE, choose_on_host
from mols.algorithms.tabu.selection import selection_for, tuned_iteration
from mols.algorithms.tabu.tuned import tuning_selection
from mols.backends import BackendSpec, prepare
from mols.backends.cuda import gpu_available
from mols.backends.gpu import GpuEvaluator
from mols.backends.launch import launch_failures
from mols.backends.spec import MEMORIES
from mols.backends.tuning import TuningCache, device_times, gpu_evaluator, probe_solution
from mols.bench.common import Spread, queue_seconds, time_spread
from mols.errors import BackendError, MolsError
from mols.problems import load_problem

MEASURED = """`mols bench gpu-techniques`: the GPU techniques of Luong, Melab & Talbi (IEEE TC 2013, sections 3.3, 4.1,
5 and 6.5-6.7) measured on this machine, for PPP Hamming-2, TSP swap, QAP swap and flowshop insertion.

An iteration is one call of tabu search's selection (algorithms/tabu/selection.py), the step of tabu search and hill climbing: the state up, the whole
neighborhood evaluated, the best admissible neighbor chosen, the choice back. Each time below is the median
over `repeats` iterations on rotating random solutions and in brackets their range (a ratio: the medians', in
brackets the ratios of the ranges' ends), every column measured side by side in one run.

- generation (Table 8): moves decoded on the device from the thread id (the default) against moves built on
  the host and copied up each iteration (--generation host); each iteration split into host process (the
  state and, host, the moves made; perf_counter), transfers (copies up and down) and kernels (CUDA events
  around each of 5 blocks of each part, timed apart; the parts' ranges added up).
- reduction (Table 9): the GPU's acceleration over the CPU backend (all cores) with the selection reduced on
  the device against F copied back and chosen on the host (--selection copy).
- tuning (Table 7), on three instances per problem (TUNING_CASES): Algorithm 3 run as a search runs it
  (backends/tuning.py, algorithms/tabu/tuned.py: its first iterations, on the rotating solutions, each under the
  next launch of the paper's grid, TRIALS each), then the device time of an iteration under the tuned launch,
  every launch of the grid and the kernels' default launch, on one evaluator's buffers, in ROUNDS rounds of
  `repeats` replays of each launch's iteration graph in turn (the median and range over the rounds); tuned / best
  fixed launch of the grid, and the tuning's cost: the iterations it spent, against a 10,000-iteration run.
- memory: the kernels' memory variants (--memory), where the problem has them.
"""

CASES = {  # name -> (problem, instance, neighborhood)
    "ppp": ("ppp", "201-217", "hamming2"),
    "tsp": ("tsp", "d1291", "swap"),
    "qap": ("qap", "tai100a", "swap"),
    "flowshop": ("flowshop", "200_20_01", "insertion"),
}
TUNING_CASES = {  # name -> Table 7's (instance, neighborhood)s
    "ppp": [("101-117", "hamming2"), ("201-217", "hamming2"), ("401-417", "hamming2")],
    "tsp": [("lin318", "swap"), ("d1291", "swap"), ("pcb3038", "swap")],
    "qap": [("tai50a", "swap"), ("tai100a", "swap"), ("tai150b", "swap")],
    "flowshop": [("050_10_01", "insertion"), ("100_20_01", "insertion"), ("200_20_01", "insertion")],
}
RUN_ITERATIONS = 10_000  # the run the tuning is weighed against
SOLUTIONS = 8
ROUNDS = 7  # rounds of Table 7's device times (device_times), the launches in turn


class Case:
    """One problem, instance and neighborhood, with the random solutions and weights every iteration uses."""

    def __init__(self, name: str, repeats: int, seed: int = 0, instance: tuple[str, str] | None = None):
        problem_name, instance, nbh_name = CASES[name] if instance is None else (CASES[name][0], *instance)
        self.name, self.repeats = name, repeats
        self.problem = load_problem(problem_name, instance)
        self.nbh = self.problem.neighborhood(nbh_name)
        rng = np.random.default_rng(seed)
        self.solutions = [self.problem.random_solution(rng) for _ in range(SOLUTIONS)]
        self.c = np.full(self.problem.n_obj, 1.0 / self.problem.n_obj)
        self.head = {"case": name, "instance": instance, "neighborhood": nbh_name,
                     "neighbors": self.nbh.n_neighbors(self.problem.n)}

    def evaluator(self, spec: BackendSpec):
        return prepare(self.problem, self.nbh, spec, iteration=tuned_iteration)

    def iteration(self, ev) -> Callable[[int], object]:
        """Iteration r: the selection on the solutions in turn (module docstring)."""
        selection = selection_for(ev)
        return lambda r: selection(self.solutions[r % SOLUTIONS], self.c, r, -np.inf)

    def iteration_seconds(self, ev) -> Spread:
        """Seconds of one iteration, over `repeats`."""
        return time_spread(self.iteration(ev), self.repeats, warmup=3)


def split_seconds(case: Case, ev) -> dict[str, Spread]:
    """One iteration's parts, each timed apart (host parts by the clock, the device's by CUDA events)."""
    x, trials = case.solutions[0], case.repeats
    ev.whole_F()
    host = time_spread(lambda r: ev.stage(case.solutions[r % SOLUTIONS]), trials)
    ev.stage(x)
    up = queue_seconds(ev, ev.enqueue_transfer, trials)
    if ev.spec.selection == "copy":
        F, forbidden = ev.evaluate(x), np.zeros(ev.n_neighbors, TABU_DTYPE)
        host += time_spread(lambda r: choose_on_host(F, case.c, forbidden, r, -np.inf), trials)
        kernel = queue_seconds(ev, lambda: (ev.enqueue_prepare(), ev.enqueue_launch()), trials)
        down = queue_seconds(ev, lambda: ev.enqueue_download(0, ev.n_neighbors), trials)
    else:
        sel = selection_for(ev)
        sel(x, case.c, 0, -np.inf)
        kernel = queue_seconds(ev, lambda: (ev.enqueue_prepare(), sel.enqueue()), trials)
        down = queue_seconds(ev, lambda: ev.download(sel.result), trials)
    return {"host_s": host, "transfer_s": up + down, "kernel_s": kernel}


def generation_row(case: Case) -> dict:
    """Table 8: device against host generation, each iteration split into its parts."""
    row, iteration = dict(case.head), {}
    for mode in ("device", "host"):
        ev = case.evaluator(BackendSpec("gpu", generation=mode, tune=False))
        parts = split_seconds(case, ev)
        total = sum(v.median for v in parts.values())
        for k, v in parts.items():
            row |= v.columns(f"{mode}_{k}") | {f"{mode}_{k.removesuffix('_s')}_pct": 100 * v.median / total}
        iteration[mode] = case.iteration_seconds(ev)
        row |= iteration[mode].columns(f"{mode}_iteration_s")
    return row | iteration["host"].over(iteration["device"]).columns("host_over_device")


def reduction_row(case: Case) -> dict:
    """Table 9: the GPU's acceleration over the CPU (all cores), with and without the device's reduction."""
    cpu = case.iteration_seconds(case.evaluator(BackendSpec("cpu")))
    row = dict(case.head) | cpu.columns("cpu_iteration_s")
    for mode in ("device", "copy"):
        gpu = case.iteration_seconds(case.evaluator(BackendSpec("gpu", selection=mode, tune=False)))
        row |= gpu.columns(f"gpu_{mode}_iteration_s") | cpu.over(gpu).columns(f"acceleration_{mode}")
    return row


def tuning_row(case: Case) -> dict:
    """Table 7 for one instance: the launch Algorithm 3 tunes in a search's first iterations (on an empty cache) and
    its cost, then an iteration's device time under it, under every launch of its grid and under the default one
    (device_spreads: on one evaluator's buffers, in turn)."""
    problem, nbh = case.problem, case.nbh
    with tempfile.TemporaryDirectory() as folder:
        ev = gpu_evaluator(problem, nbh, BackendSpec("gpu", tune=True), TuningCache(Path(folder) / "tuning.json"),
                           tuned_iteration)
        tuner = ev.tuner
        selection = tuning_selection(ev)
        selection.warm()  # compiled first, as a search's warm-up does
        step = 0
        while not tuner.done:
            selection(case.solutions[step % SOLUTIONS], case.c, step, -np.inf)
            step += 1
    grid, tuned = list(tuner.times), ev.launch
    base = GpuEvaluator(problem, nbh, BackendSpec("gpu"))
    makers = {"tuned": tuned, "default": base.launch} | {launch.text: launch for launch in grid}
    shared = {name: _evaluator(lambda launch=launch: base if launch == base.launch else base.with_launch(launch))
              for name, launch in makers.items()}
    device = device_spreads(shared, problem, nbh, case.repeats)
    fixed = {name: device[name] for name in makers if name not in ("tuned", "default")
             and not math.isnan(device[name].median)}
    best = min(fixed, key=lambda name: fixed[name].median, default=None)
    best_s = fixed[best] if best else Spread.of(())
    row = dict(case.head) | {"launches": len(grid), "failed": tuner.failed.text if tuner.failed else "",
                             "tuned_launch": tuned.text, "best_fixed_launch": best,
                             "tuning_iterations": tuner.iterations,
                             "tuning_pct_of_run": 100 * tuner.iterations / RUN_ITERATIONS}
    row |= device["tuned"].columns("tuned_device_s") | best_s.columns("best_fixed_device_s")
    row |= device["default"].columns("default_device_s")
    return row | device["tuned"].over(best_s).columns("tuned_over_best_fixed_device")


def device_spreads(evaluators: dict, problem, nbh, replays: int) -> dict[str, Spread]:
    """{name: device seconds of an iteration} over ROUNDS rounds of device_times (one call each: a round's time per
    launch), `replays` replays each; NaN where the evaluator is None or its launch fails."""
    x, key = probe_solution(problem, nbh)
    rounds = [device_times(evaluators, x, key, rounds=1, replays=replays, iteration=tuned_iteration)
              for _ in range(ROUNDS)]
    return {name: Spread.of(r[name] for r in rounds if r[name] is not None) for name in evaluators}


def _evaluator(make):
    """make()'s evaluator, None where its launch fails."""
    try:
        return make()
    except (BackendError, MolsError, *launch_failures()):
        return None


def memory_row(case: Case) -> dict:
    """Iteration seconds under each memory variant the problem has (NaN where it has none)."""
    row = dict(case.head)
    for memory in MEMORIES:
        try:
            ev = case.evaluator(BackendSpec("gpu", memory=memory, tune=False))
        except MolsError:
            row |= Spread.of(()).columns(f"{memory}_s")
            continue
        row |= case.iteration_seconds(ev).columns(f"{memory}_s")
    return row


TABLES = {"generation": generation_row, "reduction": reduction_row, "memory": memory_row}


def run(cases: list[str], repeats: int, quick: bool = False, on_row: Callable[[], None] = lambda: None,
        on_case: Callable[[dict], None] = lambda tables: None) -> dict[str, list[dict]]:
    """The four tables' rows, case by case (Table 7: the case's TUNING_CASES, the first alone where `quick`);
    on_case(tables) after each case (the report so far)."""
    if not gpu_available():
        raise BackendError("mols bench gpu-techniques measures the GPU: CuPy finds no CUDA device here")
    tables = {name: [] for name in (*TABLES, "tuning")}
    for name in cases:
        case = Case(name, repeats)
        for table, make in TABLES.items():
            tables[table].append(make(case))
            on_row()
        for instance in TUNING_CASES[name][:1 if quick else None]:
            tables["tuning"].append(tuning_row(Case(name, repeats, instance=instance)))
            on_row()
        on_case(tables)
    return tables
