"""`mols bench gpu-techniques`: the GPU techniques of Luong, Melab & Talbi (IEEE TC 2013, Tables 7-9) on this
machine; MEASURED, printed in the report, says what each table is."""

from __future__ import annotations

import statistics
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
from mols.bench.common import median_seconds, queue_seconds, write_tables
from mols.errors import BackendError, MolsError
from mols.markdown import markdown_list, markdown_table
from mols.problems import load_problem

MEASURED = """`mols bench gpu-techniques`: the GPU techniques of Luong, Melab & Talbi (IEEE TC 2013, sections 3.3, 4.1,
5 and 6.5-6.7) measured on this machine, for PPP Hamming-2, TSP swap, QAP swap and flowshop insertion.

An iteration is one call of tabu search's selection (algorithms/tabu/selection.py), the step of tabu search and hill climbing: the state up, the whole
neighborhood evaluated, the best admissible neighbor chosen, the choice back. Each time below is the median
over `repeats` iterations on rotating random solutions, every column measured side by side in one run.

- generation (Table 8): moves decoded on the device from the thread id (the default) against moves built on
  the host and copied up each iteration (--generation host); each iteration split into host process (the
  state and, host, the moves made; perf_counter), transfers (copies up and down) and kernels (CUDA events
  around each part, timed apart).
- reduction (Table 9): the GPU's acceleration over the CPU backend (all cores) with the selection reduced on
  the device against F copied back and chosen on the host (--selection copy).
- tuning (Table 7): every fixed block size of the study (the --block launches), the kernels' default launch,
  fixed 256-thread blocks and the tuned launch (backends/tuning.py), measured in ROUNDS rounds, the launches in
  turn; tuned / best fixed by wall time and by device time, and the tuning pass (tuning_pass: what it adds to a
  run's start; first in this process, with compilation, then the median of PASSES - 1 more, the kernels
  compiled) against a 10,000-iteration run at the tuned speed.
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

    def iteration_seconds(self, ev) -> float:
        """Median seconds of one iteration, over `repeats`."""
        return median_seconds(self.iteration(ev), self.repeats, warmup=3)

    def interleaved_seconds(self, evaluators: dict) -> dict:
        """{name: median seconds of one iteration} for {name: evaluator (None: NaN)}: ROUNDS rounds in which each
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
        return {name: statistics.median(times[name]) if name in times else np.nan for name in evaluators}


def split_seconds(case: Case, ev) -> dict[str, float]:
    """One iteration's parts, each timed apart (median of host parts, CUDA events for the device's)."""
    x, trials = case.solutions[0], case.repeats
    ev.whole_F()
    host = median_seconds(lambda r: ev.stage(case.solutions[r % SOLUTIONS]), trials)
    ev.stage(x)
    up = queue_seconds(ev, ev.enqueue_transfer, trials)
    if ev.spec.selection == "copy":
        F, forbidden = ev.evaluate(x), np.zeros(ev.n_neighbors, TABU_DTYPE)
        host += median_seconds(lambda r: choose_on_host(F, case.c, forbidden, r, -np.inf), trials)
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
    row = dict(case.head)
    for mode in ("device", "host"):
        ev = case.evaluator(BackendSpec("gpu", generation=mode, tune=False))
        parts = split_seconds(case, ev)
        total = sum(parts.values())
        row |= {f"{mode}_{k}": v for k, v in parts.items()}
        row |= {f"{mode}_{k.removesuffix('_s')}_pct": 100 * v / total for k, v in parts.items()}
        row[f"{mode}_iteration_s"] = case.iteration_seconds(ev)
    row["host_over_device"] = row["host_iteration_s"] / row["device_iteration_s"]
    return row


def reduction_row(case: Case) -> dict:
    """Table 9: the GPU's acceleration over the CPU (all cores), with and without the device's reduction."""
    row = dict(case.head)
    row["cpu_iteration_s"] = case.iteration_seconds(case.evaluator(BackendSpec("cpu")))
    for mode in ("device", "copy"):
        row[f"gpu_{mode}_iteration_s"] = case.iteration_seconds(case.evaluator(BackendSpec("gpu", selection=mode,
                                                                                            tune=False)))
        row[f"acceleration_{mode}"] = row["cpu_iteration_s"] / row[f"gpu_{mode}_iteration_s"]
    return row


PASSES = 4  # tuning passes per case: the first (compiling), then the median of the others


def tuning_row(case: Case, blocks: tuple[int, ...]) -> dict:
    """Table 7: each fixed block size, the default launch, fixed 256 and the tuned launch, each an iteration's wall
    time (NAME_s: evaluators of their own, as runs have them, in turn) and device time (NAME_device_s: device_times
    on one evaluator's buffers, as the tuning pass compares them); the tuning pass's cost."""
    row = dict(case.head)
    problem, nbh, spec = case.problem, case.nbh, BackendSpec("gpu")
    passes = [tuning_pass(problem, nbh) for _ in range(PASSES)]  # the first compiles the candidates' kernels
    launch = passes[-1][1]
    passes = [passes[0][0], statistics.median(p[0] for p in passes[1:])]
    row["tuned_launch"] = launch.text
    makers = {**{f"block_{block}": lambda block=block: first_working(problem, nbh, spec, [fixed_launch(block)], tuned_iteration)
                 for block in blocks},
              "default": lambda: case.evaluator(BackendSpec("gpu", tune=False)),
              "fixed_256": lambda: case.evaluator(BackendSpec("gpu", block=256)),
              "tuned": lambda: first_working(problem, nbh, spec, [launch], tuned_iteration)}
    walls = case.interleaved_seconds({name: _evaluator(make) for name, make in makers.items()})
    row |= {f"{name}_s": t for name, t in walls.items()}
    base = GpuEvaluator(problem, nbh, spec)  # the launches on one evaluator's buffers, as the tuning pass has them
    launches = {**{f"block_{block}": fixed_launch(block) for block in blocks}, "default": DEFAULT_LAUNCH,
                "tuned": launch}
    shared = {name: _evaluator(lambda launch=launch: base if launch == DEFAULT_LAUNCH else base.with_launch(launch))
              for name, launch in launches.items()}
    device = device_times(shared, *probe_solution(problem, nbh), rounds=ROUNDS, replays=case.repeats,
                          iteration=tuned_iteration)
    row |= {f"{name}_device_s": np.nan if t is None else t for name, t in device.items()}
    for unit in ("", "_device"):
        row[f"best_fixed{unit}_s"] = np.nanmin([row[f"block_{block}{unit}_s"] for block in blocks])
        row[f"tuned_over_best_fixed{unit}"] = row[f"tuned{unit}_s"] / row[f"best_fixed{unit}_s"]
    row["tuning_first_s"], row["tuning_s"] = passes
    row["tuning_pct_of_run"] = 100 * passes[1] / (RUN_ITERATIONS * row["tuned_s"])
    row["tuning_first_pct_of_run"] = 100 * passes[0] / (RUN_ITERATIONS * row["tuned_s"])
    return row


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
            row[f"{memory}_s"] = np.nan
            continue
        row[f"{memory}_s"] = case.iteration_seconds(ev)
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


def write_report(tables: dict[str, list[dict]], folder: Path, settings: dict) -> Path:
    """folder/gpu-techniques.md and one CSV per table (every column)."""
    from mols.environment import environment

    text = render_markdown(tables, environment() | settings)
    return write_tables(folder, {f"{name}.csv": rows for name, rows in tables.items()}, ("gpu-techniques.md", text))


def _us(seconds: float) -> str:
    return "–" if np.isnan(seconds) else f"{seconds * 1e6:,.1f} µs"


def render_markdown(tables: dict[str, list[dict]], env: dict) -> str:
    generation = [{"case": r["case"], "neighbors": f"{r['neighbors']:,}",
                   **{f"{m}: process / transfers / kernel": f"{r[f'{m}_host_pct']:.0f} / {r[f'{m}_transfer_pct']:.0f} / "
                      f"{r[f'{m}_kernel_pct']:.0f} %" for m in ("device", "host")},
                   "device iteration": _us(r["device_iteration_s"]), "host iteration": _us(r["host_iteration_s"]),
                   "host / device": f"{r['host_over_device']:.2f}x"} for r in tables["generation"]]
    reduction = [{"case": r["case"], "CPU iteration": _us(r["cpu_iteration_s"]),
                  "GPU, device reduction": _us(r["gpu_device_iteration_s"]),
                  "GPU, F copied": _us(r["gpu_copy_iteration_s"]),
                  "acceleration with reduction": f"{r['acceleration_device']:.1f}x",
                  "acceleration without": f"{r['acceleration_copy']:.1f}x"} for r in tables["reduction"]]
    tuning = [{"case": r["case"], **{f"block {k.split('_')[1]}": _us(v) for k, v in r.items()
                                     if k.startswith("block_") and not k.endswith("_device_s")},
               "default": _us(r["default_s"]), "tuned": _us(r["tuned_s"]), "tuned launch": r["tuned_launch"],
               "tuned / best fixed": f"{r['tuned_over_best_fixed']:.3f}",
               "tuned / fixed 256": f"{r['tuned_s'] / r['fixed_256_s']:.3f}",
               "tuning pass": f"{r['tuning_s'] * 1e3:,.0f} ms ({r['tuning_pct_of_run']:.2f} %)",
               "first pass, compiling": f"{r['tuning_first_s']:.1f} s ({r['tuning_first_pct_of_run']:.1f} %)"}
              for r in tables["tuning"]]
    device = [{"case": r["case"], **{f"block {k.split('_')[1]}": _us(v) for k, v in r.items()
                                     if k.startswith("block_") and k.endswith("_device_s")},
               "default": _us(r["default_device_s"]), "tuned": _us(r["tuned_device_s"]),
               "tuned / best fixed": f"{r['tuned_over_best_fixed_device']:.3f}",
               "tuned / default": f"{r['tuned_device_s'] / r['default_device_s']:.3f}"} for r in tables["tuning"]]
    memory = [{"case": r["case"], **{m: _us(r[f"{m}_s"]) for m in MEMORIES}} for r in tables["memory"]]
    return (f"# GPU techniques (IEEE TC 2013, Tables 7-9) on this machine\n\nMade by `mols bench gpu-techniques`."
            f"\n\n```\n{MEASURED.strip()}\n```\n\n{markdown_list(env)}\n\n"
            f"## Generation on the device or on the host (Table 8)\n\n{markdown_table(generation)}\n\n"
            f"## Reduction on the device or F copied back (Table 9)\n\n{markdown_table(reduction)}\n\n"
            f"## Launch: fixed blocks, default, tuned (Table 7); % of a {RUN_ITERATIONS:,}-iteration run\n\n"
            f"{markdown_table(tuning)}\n\n### The same launches, device time per iteration (CUDA events around "
            f"replays of the iteration's graph, the launches in turn over {ROUNDS} rounds, the median: what the "
            f"tuning pass compares)\n\n{markdown_table(device)}\n\n"
            f"## Memory variants\n\n{markdown_table(memory)}\n")
