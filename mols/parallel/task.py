"""What a worker runs for the driver: a few searches of one configuration on the worker's device, returned as their
results and results files (the files `mols run` writes) so that no shared file system is needed; on the client's own
host the worker writes each search's folder itself."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from mols.errors import MolsError
from mols.parallel.record import EXIT_CODES, Written, seed_checkpoints, seed_folder, write_seed
from mols.results import RunContext, results_files
from mols.runner import RunConfig, SearchResult, build_search, run_problem
from mols.runner.batch import seed_configs, sharing_batch

ONE_AT_A_TIME = threading.Lock()  # a worker started with several threads still runs one task at a time
LOG_SECONDS = 10.0  # a search's log (SearchLog): a line this often


@dataclass(frozen=True)
class Shipped:
    """An instance file of the client, sent with every task."""

    name: str
    data: bytes

    @classmethod
    def of(cls, instance: str) -> Shipped | None:
        path = Path(instance)
        return cls(path.name, path.read_bytes()) if path.is_file() else None

    def path(self) -> Path:
        """Where the file is on this machine, written there the first time."""
        folder = Path(tempfile.gettempdir()) / "mols-instances" / hashlib.sha256(self.data).hexdigest()[:16]
        where = folder / self.name
        if not where.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            temporary = folder / f".{self.name}.{os.getpid()}.tmp"
            temporary.write_bytes(self.data)
            os.replace(temporary, where)
        return where


@dataclass
class Outcome:
    """One search of a task: its status, exit code (as `mols run`'s), result and results files (None where it did
    not run, or where the worker wrote them into the search's folder itself: then `written` says what it wrote)."""

    seed: int
    status: str
    code: int | None = None
    result: SearchResult | None = None
    files: dict[str, bytes] | None = None
    written: Written | None = None


@dataclass
class TaskReport:
    """Where and when a task ran, and its searches' outcomes."""

    worker: str
    host: str
    gpu: str | None  # the worker's CUDA_VISIBLE_DEVICES
    device: str | None = None
    bus: str | None = None  # the GPU's PCI bus id: which card it was
    started: float = 0.0
    ended: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)


def worker_config(fields: dict, shipped: Shipped | None) -> RunConfig:
    """The configuration on this worker: its instance file where it was shipped, one core on a CPU worker."""
    config = RunConfig(**(fields | ({"instance": str(shipped.path())} if shipped else {})))
    if config.spec.device == "cpu" and config.threads is None:
        config = dataclasses.replace(config, threads=1)
    return config


def check_task(fields: dict, shipped: Shipped | None) -> dict:
    """The configuration as a worker resolves it, its instance read and, on a GPU, its device found: a MolsError
    here is the user's to see, once, rather than every task's on every attempt."""
    config = worker_config(fields, shipped)
    problem = run_problem(config)
    _bus(config)
    return {"backend": config.backend, "instance": problem.instance_name, "objectives": list(problem.objectives)}


def run_task(fields: dict, seeds: list[int], shipped: Shipped | None, side, logs: str | None = None,
             checkpoints: tuple[str, float | None] | None = None, home: tuple[str, str] | None = None,
             keep: bool = True) -> TaskReport:
    """The searches of `fields` (RunConfig's keywords) with these seeds on this worker (module docstring); `side`:
    the executor's side of the worker (its name and the driver's stop, executors.py); `logs`: a folder of this
    machine where each search writes its progress, seed-S.log (None: nowhere); `checkpoints`: (the run's folder,
    seconds between checkpoints or None): each search resumes from FOLDER/seed-S's checkpoint where one is, and
    writes one there at that interval (resume.py); `home`: (the run's folder, the client's host name): a worker on
    that host writes each search's folder there itself (home_folder), in parallel with the other workers, rather
    than leave every folder to the client in turn (reports/multistart/); `keep`: each search's SearchResult sent back
    even where its folder was written here (else only what the record needs: the client's settling is serial)."""
    report = TaskReport(side.worker(), socket.gethostname(), os.environ.get("CUDA_VISIBLE_DEVICES"))
    here = home_folder(home)
    with ONE_AT_A_TIME:
        stop = side.stop()
        report.started = time.time()
        try:
            if not stop.requested:
                config = worker_config(fields, shipped)
                report.bus = _bus(config)
                report.outcomes = [_outcome(one, context, result, fields["instance"], report, stop, here, keep)
                                   for one, context, result in _searches(config, seeds, stop, logs, checkpoints)]
        finally:
            stop.close()
        report.ended = time.time()
    ran = {outcome.seed for outcome in report.outcomes}
    report.outcomes += [Outcome(seed, "not run") for seed in seeds if seed not in ran]
    return report


class SearchLog:
    """A search's progress as lines in its log, FOLDER/seed-S.log, as `mols run` writes them where the output is
    no terminal: the first iteration, then one line every LOG_SECONDS, and the last."""

    def __init__(self, folder: str, config: RunConfig):
        self.path, self.total, self.last = seed_folder(Path(folder), config.seed).with_suffix(".log"), None, None
        self.write(f"mols: {config.label} on {config.backend}, seed {config.seed}")

    def write(self, line: str) -> None:
        with open(self.path, "a", encoding="utf-8") as log:
            log.write(line + "\n")

    def __call__(self, done: int, archive: int) -> None:
        now = time.monotonic()
        if self.last is None or now - self.last >= LOG_SECONDS or (self.total is not None and done >= self.total):
            self.write(f"mols: {done}{'' if self.total is None else f'/{self.total}'} iterations, archive {archive}")
            self.last = now


def _searches(config: RunConfig, seeds: list[int], stop, logs: str | None, checkpoints):
    """(config, RunContext, result) of each seed: together where they share launches, else one after another
    (none starts after a stop)."""
    configs = seed_configs(config, seeds)
    watch = [SearchLog(logs, one) if logs is not None else None for one in configs]
    batch = sharing_batch(config, seeds, watch.__getitem__)
    if batch is not None:
        results = batch.run(stop)
        yield from zip(configs, map(RunContext.of, batch.searches), results)
        return
    loaded = None  # the problem, loaded once for the task's searches (they differ only by their seeds)
    for one, log in zip(configs, watch):
        if stop.requested:
            return
        if one.strategy is not None:
            from mols.algorithms.ils3opt.search import config_result, config_run

            run = config_run(one)
            monitors, state = seed_checkpoints(one, run, checkpoints)
            result, ran_on = config_result(one, stop, monitors, state, run)
            yield one, RunContext.on(*ran_on), result
        else:
            loaded = run_problem(one) if loaded is None else loaded
            search = build_search(one, log, loaded=loaded)
            if log is not None:
                log.total = search.total
            monitors, state = seed_checkpoints(one, search, checkpoints)
            yield one, RunContext.of(search), search.run(stop, monitors, state)


def home_folder(home: tuple[str, str] | None) -> Path | None:
    """The run's folder where this worker runs on the client's host and sees it, else None."""
    if home is None or socket.gethostname() != home[1] or not Path(home[0]).is_dir():
        return None
    return Path(home[0])


def _outcome(config: RunConfig, context: RunContext, result: SearchResult, instance: str, report: TaskReport,
             stop, here: Path | None = None, keep: bool = True) -> Outcome:
    """The search's result and results files, its configuration naming the instance as the client gave it; with
    `here`, its folder written there (flushed to the disk by the client, sync_disks), the files sent back only where
    that failed, for the client to write or report, and the result only where `keep`."""
    report.device = context.device
    files = results_files(dataclasses.replace(config, instance=instance), result, context)
    outcome = Outcome(config.seed, result.status, EXIT_CODES.get(result.status, stop.exit_code or 130), result, files)
    if here is not None:
        try:
            write_seed(here, config.seed, files, durable=False)
        except MolsError:
            return outcome
        outcome.files, outcome.written = None, Written.of(files, result.archive.F)
        outcome.result = result if keep else None
    return outcome


def _bus(config: RunConfig) -> str | None:
    if config.spec.device != "gpu":
        return None
    from mols.backends.cuda import import_cupy

    return import_cupy().cuda.Device().pci_bus_id
