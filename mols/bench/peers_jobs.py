"""What `mols bench peers` runs, whatever the domain: a run as a job (mols through the library, a peer through its
own call), each returning its best-so-far points, and the two phases that run them (docs/internals.md)."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter

from mols.runner import RunConfig, solve

WARM_SECONDS = 0.2  # a mols configuration's first run in a process, untimed: its kernels compiled
SINGLE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                        "NUMBA_NUM_THREADS")}  # a CPU peer's worker: one core, one thread
POLL_SECONDS = 1.0
WARMED: set = set()  # the configurations this process has compiled


@dataclass(frozen=True)
class MolsSearch:
    """What mols runs in a domain: RunConfig fields (algorithm and its options) on the GPU and on the CPU backend."""

    gpu: dict
    cpu: dict

    def config(self, problem: str, instance: str, seed: int, backend: str, seconds: float) -> RunConfig:
        fields = {"backend": backend} | (self.gpu if backend == "gpu" else self.cpu)
        return RunConfig(instance, problem=problem, seed=seed, time=seconds, **fields)


@dataclass(frozen=True)
class Job:
    """One run: `call` (a function and its arguments, picklable) returns {"points": [[seconds, value], ...], and
    where there is one "final": the solution of the last point, "note": what went wrong}. budget None: an anytime
    run, read at every budget; else a run of that budget alone. device: it runs in the device phase (mols, and what
    mols' backend evaluates); else in the pool of single-threaded CPU workers."""

    domain: str
    instance: str
    contestant: str
    seed: int
    call: tuple
    budget: float | None = None
    device: bool = False
    expected: float = field(default=0.0, compare=False)  # seconds it should take: the longest start first
    threads: int = 1  # above 1: a CPU peer's run on that many threads, alone on the machine


@dataclass(frozen=True)
class Settings:
    """The bench's settings: budgets (seconds), seeds (0 .. seeds - 1), mols' backend (resolved: cpu or gpu), the GPUs
    mols' jobs spread over, LKH-3's timeout and the cores the CPU peers run on (one single-threaded job each)."""

    budgets: tuple[float, ...]
    seeds: int
    backend: str
    gpus: int = 1
    lkh_timeout: float = 60.0
    cores: int = 1
    fast_tsp_threads: int = 1


@dataclass(frozen=True)
class Domain:
    """A domain: its mols problem, what mols runs there (the trace's `column` read at each budget), its peers
    (contestant -> the module it needs) and their jobs (peer_jobs(instance, settings, peers)), how a run's value
    scores (score(instance, value): a gap in %, or a hypervolume where `higher`), its targets (scores) and its
    instances' sizes (size(instance), as text)."""

    name: str
    problem: str
    search: MolsSearch
    column: str
    peers: dict[str, str]
    peer_jobs: Callable[[str, Settings, list[str]], list[Job]]
    score: Callable[[str, float], float]
    size: Callable[[str], str]
    targets: tuple[float, ...] = ()
    higher: bool = False
    notes: tuple[str, ...] = ()

    def jobs(self, instance: str, settings: Settings, peers: list[str]) -> list[Job]:
        """mols' runs (one per seed, read at every budget), then the peers'."""
        longest = max(settings.budgets)
        own = [Job(self.name, instance, "mols", seed, (mols_run, self.search, self.problem, instance, seed,
                                                        settings.backend, longest, self.column),
                   device=True, expected=longest) for seed in range(settings.seeds)]
        return own + self.peer_jobs(instance, settings, peers)


def missing(module: str) -> bool:
    """Whether `module` cannot be imported (a peer not installed)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return True
    return False


def solve_config(config: RunConfig):
    """The SearchResult of a RunConfig, ILS-3opt's population included (it runs outside mols.solve)."""
    if getattr(config.options, "strategy", None) is not None:
        from mols.algorithms.ils3opt.search import config_result

        return config_result(config)[0]
    return solve(config)


def mols_run(search: MolsSearch, problem: str, instance: str, seed: int, backend: str, seconds: float,
             column: str) -> dict:
    """mols for `seconds` (after an untimed run where this process has not run the configuration yet): the trace's
    `column` by its seconds of search, and the archive's first solution."""
    config = search.config(problem, instance, seed, backend, seconds)
    key = (problem, instance, backend, repr(search))
    if key not in WARMED:
        solve_config(dataclasses.replace(config, time=min(seconds, WARM_SECONDS)))
        WARMED.add(key)
    result = solve_config(config)
    if result.status != "completed":
        return {"points": [], "note": f"{result.status}: {result.error}"}
    at = result.trace.columns.index(column)
    points = [[row[0], row[at]] for row in result.trace.rows]
    return {"points": points, "final": result.archive.X[0].tolist()}


class Recorder:
    """A peer's best value so far, with the seconds since it was made at each improvement, until `seconds`."""

    def __init__(self, seconds: float):
        self.start, self.seconds = perf_counter(), seconds
        self.best, self.final, self.points = float("inf"), None, []

    def expired(self) -> bool:
        return perf_counter() - self.start >= self.seconds

    def offer(self, value: float, solution) -> None:
        if value < self.best:
            self.best, self.final = float(value), solution
            self.points.append([perf_counter() - self.start, self.best])

    def result(self) -> dict:
        return {"points": self.points, "final": None if self.final is None else list(map(float, self.final))}


def run_jobs(jobs: list[Job], gpus: int, cores: int, on_job: Callable[[Job, dict], None]) -> list[dict]:
    """Each job's result, by position: the device jobs first (here, one after another; or one per GPU at a time in
    processes of their own where gpus > 1), then the CPU peers on `cores` single-threaded workers, never beside mols,
    then those of several threads one at a time."""
    results: list[dict | None] = [None] * len(jobs)
    device = [i for i, job in enumerate(jobs) if job.device]
    host = [i for i, job in enumerate(jobs) if not job.device and job.threads == 1]
    wide = [i for i, job in enumerate(jobs) if not job.device and job.threads > 1]
    if gpus > 1 and device:
        from mols.parallel.workers import local_workers

        pooled(jobs, device, local_workers("gpu", gpus), results, on_job)
    else:
        for i in device:
            results[i] = guarded(jobs[i].call)
            on_job(jobs[i], results[i])
    if host:
        workers = {str(core): SINGLE_THREAD for core in range(min(cores, len(host)))}
        pooled(jobs, host, workers, results, on_job)
    for i in wide:  # threaded peers one at a time, the machine theirs
        results[i] = guarded(jobs[i].call)
        on_job(jobs[i], results[i])
    return results


def guarded(call: tuple) -> dict:
    """call's result, or a note of its error (a peer that fails is one row's note, not the bench's end)."""
    try:
        return call[0](*call[1:])
    except Exception as error:  # noqa: BLE001  any peer's failure
        return failure(error)


def failure(error: BaseException) -> dict:
    return {"points": [], "note": f"failed: {type(error).__name__}: {error}"}


def pooled(jobs: list[Job], chosen: list[int], workers: dict, results: list, on_job) -> None:
    """The chosen jobs on worker processes (mols/parallel's pool: one job at a time each), the longest first."""
    from mols.parallel.executors import ProcessExecutor

    pool = ProcessExecutor(workers)
    try:
        order = sorted(chosen, key=lambda i: -jobs[i].expected)
        futures = {pool.submit(guarded, jobs[i].call, key=str(i)): i for i in order}
        waiting = set(futures)
        while waiting:
            for future in pool.wait(list(waiting), POLL_SECONDS):
                if future in waiting:
                    waiting.discard(future)
                    i = futures[future]
                    error = future.exception()
                    results[i] = failure(error) if error is not None else future.result()
                    on_job(jobs[i], results[i])
    finally:
        pool.close()
