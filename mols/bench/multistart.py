"""`mols bench multistart`: Table 5 of Luong, Melab & Talbi (2009) on this machine: K independent iterated tabu
searches on QAP tai12a ... tai256c on one core, all cores, one GPU and all GPUs, plus K PLS searches on the
flowshop 200_20_01; what a cell measures: docs/internals.md."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mols.bench.common import Spread, cpu_budget
from mols.errors import MolsError
from mols.runner import RunConfig, run_problem
from mols.signals import Stop

INSTANCES = ("tai12a", "tai15a", "tai17a", "tai20a", "tai25a", "tai30a", "tai35a", "tai40a", "tai50a", "tai60a",
             "tai64c", "tai80a", "tai100a", "tai256c")  # the paper's Table 5
FLOWSHOP = "200_20_01"
# Table 5 (Xeon 8 cores, 2 GTX 280, 20 ITS of 10 x 1,000 iterations), seconds: CPU, MultiCPU, GPU, MultiGPU.
PAPER_SECONDS = {"tai12a": (2.0, 0.4, 10, 7.1), "tai15a": (3.6, 0.6, 12, 8.0), "tai17a": (5.4, 0.7, 14, 8.7),
                 "tai20a": (8.8, 1.2, 16, 9.7), "tai25a": (17, 2.2, 19, 11), "tai30a": (29, 3.8, 22, 12),
                 "tai35a": (46, 6.0, 24, 13), "tai40a": (70, 8.9, 27, 15), "tai50a": (136, 17, 33, 18),
                 "tai60a": (238, 29, 39, 21), "tai64c": (292, 36, 43, 23), "tai80a": (593, 74, 66, 35),
                 "tai100a": (1220, 153, 110, 57), "tai256c": (23738, 2970, 3169, 1690)}
PAPER_RUN_LENGTH = 1000  # tabu iterations per ITS run (the paper: 10 runs of 1,000)
COLUMNS = {"cpu1": ("cpu", 1), "cpu": ("cpu", None), "gpu1": ("gpu", 1), "gpu": ("gpu", None)}  # device, workers
MODES = ("one", "batched")
WARM_ITERATIONS = 200
SCRATCH = "scratch"  # the timed multistarts' folders, under the output; removed at the end


@dataclass
class Case:
    """A row of the table: K searches of `fields` (RunConfig's keywords but the backend); a CPU search evaluates
    at most `cap` neighbors."""

    fields: dict
    n: int
    neighbors: int
    cap: int

    @property
    def instance(self) -> str:
        return self.fields["instance"]

    def iterations(self, column: str) -> int:
        """Iterations per search in this column: the budget, or on a CPU fewer where the cap bites."""
        budget = self.fields["iterations"]
        return budget if COLUMNS[column][0] == "gpu" else cpu_budget(budget, self.neighbors, self.cap)


@dataclass
class Settings:
    searches: int = 20
    repeats: int = 3
    modes: tuple[str, ...] = MODES  # of MODES: the arrangements measured where they apply


def make_case(instance: str, problem: str, algorithm: str, iterations: int, cap: int, **extra) -> Case:
    fields = {"instance": instance, "problem": problem, "algorithm": algorithm, "iterations": iterations, "seed": 0,
              **extra}
    config = RunConfig(**fields, backend="cpu")
    loaded = run_problem(config)
    return Case(fields, loaded.n, loaded.neighborhood(config.neighborhood).n_neighbors(loaded.n), cap)


def qap_case(instance: str, iterations: int, cpu_moves: int) -> Case:
    return make_case(instance, "qap", "its", iterations, cpu_moves, run_length=PAPER_RUN_LENGTH)


def flowshop_case(iterations: int, cpu_moves: int) -> Case:
    return make_case(FLOWSHOP, "flowshop", "pls", iterations, cpu_moves)


def plan_columns(requested: list[str], gpus: int) -> tuple[list[str], list[str]]:
    """The columns this machine can measure, and a note for each one it cannot."""
    kept, notes = [], []
    for column in requested:
        if COLUMNS[column][0] == "gpu" and gpus == 0:
            notes.append(f"{column}: skipped, no GPU visible (CuPy finds none)")
        elif column == "gpu" and gpus == 1:
            notes.append("gpu: skipped, one GPU visible (it would repeat gpu1)")
        else:
            kept.append(column)
    return kept, notes


def modes(case: Case, column: str, searches: int, workers: int, wanted=MODES) -> list[tuple[str, int]]:
    """(mode, searches per task) of a column, of those `wanted`: `one`; on a GPU also `batched` where the searches
    share launches (driver.default_per_task) and a task would hold more than one."""
    from mols.parallel.driver import default_per_task

    per_task = default_per_task(case.fields, searches, workers)
    found = [("one", 1)] + ([("batched", per_task)] if COLUMNS[column][0] == "gpu" and per_task > 1 else [])
    return [(mode, per) for mode, per in found if mode in wanted]


@dataclass
class Timed:
    """A timed multistart: the driver's wall seconds and record, and its start and end by time.time(), the clock of
    the record's tasks (a local cluster's workers share this host's)."""

    seconds: float
    record: dict
    start: float
    end: float

    def phases(self) -> dict:
        """Where the run's time went besides its tasks: from the driver's start to the first task's (lead), from the
        last task's end to the driver's (tail), the slowest task, and how far apart the tasks ended."""
        attempts = _last_attempts(self.record)
        starts, ends = [a["started"] for a in attempts], [a["ended"] for a in attempts]
        return {"lead_seconds": min(starts) - self.start, "tail_seconds": self.end - max(ends),
                "slowest_task_seconds": max(a["seconds"] for a in attempts),
                "task_ends_apart_seconds": max(ends) - min(ends)}


def timed_multistart(executor, fields: dict, searches: int, folder: Path, per_task: int) -> Timed:
    """The driver's run (`mols multistart`'s), timed; MolsError where a search did not complete."""
    from mols.parallel.driver import Driver
    from mols.parallel.record import MULTISTART, unfinished

    seeds = range(fields.get("seed", 0), fields.get("seed", 0) + searches)
    driver = Driver(executor, fields, seeds, folder, MULTISTART, per_task, overwrite=True)
    start, wall = time.perf_counter(), time.time()
    record = driver.run(Stop())  # never requested: Ctrl-C interrupts the bench itself
    seconds, end = time.perf_counter() - start, time.time()
    error = unfinished(record)
    if error:
        raise MolsError(f"a benchmark multistart did not complete ({error}); see {folder / MULTISTART}")
    return Timed(seconds, record, wall, end)


def measure(executor, case: Case, column: str, mode: str, per_task: int, settings: Settings, scratch: Path) -> dict:
    """One cell: a warm-up multistart, then `repeats` timed ones (docs/internals.md)."""
    workers, iterations = len(executor.workers()), case.iterations(column)
    fields = case.fields | {"backend": COLUMNS[column][0], "iterations": iterations}
    warm = fields | {"iterations": min(WARM_ITERATIONS, iterations)}
    timed_multistart(executor, warm, per_task * workers, scratch / "warm-up", per_task)
    # a folder per repeat: each writes new folders, as `mols multistart -o NEW` does (replacing files costs more)
    folder = scratch / f"{case.instance}-{column}-{mode}"
    runs = [timed_multistart(executor, fields, settings.searches, folder / f"repeat-{repeat}", per_task)
            for repeat in range(settings.repeats)]
    shutil.rmtree(folder, ignore_errors=True)
    budget, records = case.fields["iterations"], [run.record for run in runs]
    full = Spread.of(run.seconds + (budget / iterations - 1) * _busiest_worker_seconds(run.record) for run in runs)
    phases = [run.phases() for run in runs]
    return {"instance": case.instance, "problem": case.fields["problem"], "algorithm": case.fields["algorithm"],
            "n": case.n, "neighbors": case.neighbors, "column": column, "mode": mode, "workers": workers,
            "per_task": per_task, "searches": settings.searches, "iterations": iterations, "budget": budget,
            "estimated": iterations < budget, "repeats": settings.repeats,
            **Spread.of(run.seconds for run in runs).columns("seconds"), **full.columns("seconds_full"),
            "task_seconds": statistics.median(_task_seconds(r) for r in records),
            "search_seconds": statistics.median(sum(s["wall_seconds"] for s in r["searches"]) for r in records),
            **{key: statistics.median(p[key] for p in phases) for key in phases[0]},
            "gpus": ",".join(sorted({str(a["gpu"]) for r in records for a in _last_attempts(r) if a.get("gpu")}))}


def _last_attempts(record: dict) -> list[dict]:
    return [task["attempts"][-1] for task in record["tasks"] if task["attempts"]]


def _busiest_worker_seconds(record: dict) -> float:
    """The largest sum of the searches' wall_seconds over one worker's tasks (searches one after another: the
    cells that scale them are on the CPU, where a task's searches share no clock)."""
    wall = {search["seed"]: search.get("wall_seconds", 0.0) for search in record["searches"]}
    workers: dict[str, float] = {}
    for task in record["tasks"]:
        if task["attempts"]:
            worker = task["attempts"][-1].get("worker", "")
            workers[worker] = workers.get(worker, 0.0) + sum(wall.get(seed, 0.0) for seed in task["seeds"])
    return max(workers.values(), default=0.0)


def _task_seconds(record: dict) -> float:
    return sum(attempt.get("seconds", 0.0) for attempt in _last_attempts(record))


OnRow = Callable[[list[dict], list[dict]], None]


def run(cases: list[Case], columns: list[str], settings: Settings, output: Path,
        on_row: OnRow = lambda rows, clusters: None) -> tuple[list[dict], list[dict]]:
    """Every case in every column, a cluster per column: (cells, clusters); on_row(cells, clusters) after each
    cell (e.g. to rewrite the report, so that a run cut short keeps what it measured)."""
    from mols.parallel.executors import open_executor

    rows, clusters, scratch = [], [], output / SCRATCH
    for column in columns:
        device, workers = COLUMNS[column]
        start = time.perf_counter()
        with open_executor("dask", device, workers) as executor:
            count = len(executor.workers())
            clusters.append({"column": column, "device": device, "workers": count,
                             "start_seconds": time.perf_counter() - start})
            for case in cases:
                for mode, per_task in modes(case, column, settings.searches, count, settings.modes):
                    rows.append(measure(executor, case, column, mode, per_task, settings, scratch))
                    on_row(rows, clusters)
    shutil.rmtree(scratch, ignore_errors=True)
    return rows, clusters


def header(settings: dict) -> dict:
    """environment() with the CPU's model, every visible GPU, the Dask versions, then the bench's settings."""
    from mols.environment import environment

    env = environment()
    env["cpu"] = f"{cpu_model()}, {os.cpu_count()} logical cores"
    names = gpu_names()
    env["gpus"] = f"{len(names)}: {', '.join(names)}" if names else "none"
    import dask
    import distributed

    return env | {"dask": dask.__version__, "distributed": distributed.__version__} | settings


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_names() -> list[str]:
    from mols.parallel.workers import visible_gpus

    gpus = visible_gpus()
    if not gpus:
        return []
    from mols.backends.cuda import import_cupy

    runtime = import_cupy().cuda.runtime
    return [runtime.getDeviceProperties(i)["name"].decode() for i in range(len(gpus))]
