"""`mols bench gpu-techniques`: the GPU techniques of Luong, Melab & Talbi (IEEE TC 2013, Tables 7-9) on this
machine, measured (the report: gpu_techniques_tables.py); MEASURED, printed in the report, says what each table is."""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mols.algorithms.tabu.select import TABU_DTYPE, choose_on_host
from mols.algorithms.tabu.selection import selection_for, tuned_iteration
from mols.backends import BackendSpec, prepare
from mols.backends.cuda import gpu_available, gpu_name
from mols.backends.gpu import GpuEvaluator
from mols.backends.launch import DEFAULT_LAUNCH, Launch, launch_failures
from mols.backends.spec import MEMORIES
from mols.backends.tuning import (
    BLOCKS,
    TuningCache,
    device_times,
    first_working,
    fixed_launch,
    gpu_evaluator,
    probe_solution,
    tuning_key,
)
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
- tuning (Table 7): every fixed block size of the study (the --block launches), the kernels' default launch,
  fixed 256-thread blocks and the tuned launch (backends/tuning.py), measured in ROUNDS rounds, the launches in
  turn; tuned / best fixed by wall time and by device time, and the tuning pass (tuning_pass: what it adds to a
  run's start; first in this process, with compilation, then the median and range of PASSES - 1 more, the
  kernels compiled) against a 10,000-iteration run at the tuned speed. Device times: ROUNDS rounds of `repeats`
  replays of each launch's iteration graph in turn, the median and range over the rounds.
- memory: the kernels' memory variants (--memory), where the problem has them.
"""

CASES = {  # name -> (problem, instance, neighborhood)
    "ppp": ("ppp", "201-217", "hamming2"),
    "tsp": ("tsp", "d1291", "swap"),
    "qap": ("qap", "tai100a", "swap"),
    "flowshop": ("flowshop", "200_20_01", "insertion"),
}
QUICK_BLOCKS = (128, 256, 512)
RUN_ITERATIONS = 10_000  # the run the tuning pass is weighed against
SOLUTIONS = 8
ROUNDS = 7  # rounds of Table 7's times, the launches in turn: wall (Case.interleaved_seconds), device (device_times)


class Case:
    """One problem, instance and neighborhood, with the random solutions and weights every iteration uses."""

    def __init__(self, name: str, repeats: int, seed: int = 0):
        problem_name, instance, nbh_name = CASES[name]
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

    def interleaved_seconds(self, evaluators: dict) -> dict[str, Spread]:
        """{name: seconds of one iteration} for {name: evaluator (None: NaN)}: ROUNDS rounds in which each
        evaluator in turn makes `repeats` // ROUNDS timed iterations (after 3 untimed ones), so that the machine's
        drift falls on all alike (two measurements of one launch one after the other differ by more than launches
        do)."""
        runs = {name: self.iteration(ev) for name, ev in evaluators.items() if ev is not None}
        times = {name: [] for name in runs}
        for name, run in runs.items():
            for r in range(3):
                run(r)
        for r in range(ROUNDS):
            for name, run in runs.items():
                for q in range(max(1, self.repeats // ROUNDS)):
                    start = time.perf_counter()
                    run(r + q)
                    times[name].append(time.perf_counter() - start)
        return {name: Spread.of(times.get(name, ())) for name in evaluators}


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


PASSES = 4  # tuning passes per case: the first (compiling), then the median and range of the others


def tuning_row(case: Case, blocks: tuple[int, ...]) -> dict:
    """Table 7: each fixed block size, the default launch, fixed 256 and the tuned launch, each an iteration's wall
    time (NAME_s: evaluators of their own, as runs have them, in turn) and device time (NAME_device_s: device_times
    on one evaluator's buffers, as the tuning pass compares them); the tuning pass's cost."""
    problem, nbh, spec = case.problem, case.nbh, BackendSpec("gpu")
    passes = [tuning_pass(problem, nbh) for _ in range(PASSES)]  # the first compiles the candidates' kernels
    launch = passes[-1][1]
    makers = {**{f"block_{block}": lambda block=block: first_working(problem, nbh, spec, [fixed_launch(block)], tuned_iteration)
                 for block in blocks},
              "default": lambda: case.evaluator(BackendSpec("gpu", tune=False)),
              "fixed_256": lambda: case.evaluator(BackendSpec("gpu", block=256)),
              "tuned": lambda: first_working(problem, nbh, spec, [launch], tuned_iteration)}
    walls = case.interleaved_seconds({name: _evaluator(make) for name, make in makers.items()})
    base = GpuEvaluator(problem, nbh, spec)  # the launches on one evaluator's buffers, as the tuning pass has them
    launches = {**{f"block_{block}": fixed_launch(block) for block in blocks}, "default": DEFAULT_LAUNCH,
                "tuned": launch}
    shared = {name: _evaluator(lambda launch=launch: base if launch == DEFAULT_LAUNCH else base.with_launch(launch))
              for name, launch in launches.items()}
    device = device_spreads(shared, problem, nbh, case.repeats)
    tuning, run_s = Spread.of(p[0] for p in passes[1:]), RUN_ITERATIONS * walls["tuned"].median
    row = dict(case.head) | {"tuned_launch": launch.text, "tuning_first_s": passes[0][0]} | tuning.columns("tuning_s")
    row |= {"tuning_pct_of_run": 100 * tuning.median / run_s, "tuning_first_pct_of_run": 100 * passes[0][0] / run_s}
    for unit, times in (("", walls), ("_device", device)):
        for name, seconds in times.items():
            row |= seconds.columns(f"{name}{unit}_s")
        fixed = [times[f"block_{block}"] for block in blocks if not math.isnan(times[f"block_{block}"].median)]
        best = min(fixed, key=lambda seconds: seconds.median, default=Spread.of(()))
        row |= best.columns(f"best_fixed{unit}_s") | times["tuned"].over(best).columns(f"tuned_over_best_fixed{unit}")
    row |= walls["tuned"].over(walls["fixed_256"]).columns("tuned_over_fixed_256")
    return row | device["tuned"].over(device["default"]).columns("tuned_over_default_device")


def device_spreads(evaluators: dict, problem, nbh, replays: int) -> dict[str, Spread]:
    """{name: device seconds of an iteration} over ROUNDS rounds of device_times (one call each: a round's time per
    launch), `replays` replays each; NaN where the evaluator is None or its launch fails."""
    x, key = probe_solution(problem, nbh)
    rounds = [device_times(evaluators, x, key, rounds=1, replays=replays, iteration=tuned_iteration)
              for _ in range(ROUNDS)]
    return {name: Spread.of(r[name] for r in rounds if r[name] is not None) for name in evaluators}


def tuning_pass(problem, nbh) -> tuple[float, Launch]:
    """The seconds tuning adds to a run (its evaluator made with --tune on an empty tuning cache, less one made
    without: the pass hands the run its evaluator) and the launch chosen."""
    spec = BackendSpec("gpu", tune=True)
    with tempfile.TemporaryDirectory() as folder:
        cache = TuningCache(Path(folder) / "tuning.json")
        start = time.perf_counter()
        gpu_evaluator(problem, nbh, spec, cache, tuned_iteration)
        tuned = time.perf_counter() - start
    start = time.perf_counter()
    gpu_evaluator(problem, nbh, BackendSpec("gpu", tune=False), iteration=tuned_iteration)
    return tuned - (time.perf_counter() - start), cache.launches[tuning_key(gpu_name(), problem, nbh, spec)]


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


def run(cases: list[str], repeats: int, blocks: tuple[int, ...] = BLOCKS, on_row: Callable[[], None] = lambda: None,
        on_case: Callable[[dict], None] = lambda tables: None) -> dict[str, list[dict]]:
    """The four tables' rows, case by case; on_case(tables) after each case (the report so far)."""
    if not gpu_available():
        raise BackendError("mols bench gpu-techniques measures the GPU: CuPy finds no CUDA device here")
    tables = {name: [] for name in (*TABLES, "tuning")}
    for name in cases:
        case = Case(name, repeats)
        for table, make in TABLES.items():
            tables[table].append(make(case))
            on_row()
        tables["tuning"].append(tuning_row(case, blocks))
        on_row()
        on_case(tables)
    return tables
