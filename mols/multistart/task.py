"""What a Dask worker runs for `mols multistart`: a few searches of one configuration on the worker's device,
returned as their results files so that no shared file system is needed (docs/internals.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import signal
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from mols.results import RunContext, results_files
from mols.runner import RunConfig, build_search
from mols.algorithms.tabu.batch import seed_configs, sharing_batch
from mols.signals import Stop

ONE_AT_A_TIME = threading.Lock()  # a worker started with several threads still runs one task at a time
WATCH_SECONDS = 0.2  # how often a running task looks at the client's stop


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
    """One search of a task: its status and its results files (None where it did not run)."""

    seed: int
    status: str
    files: dict[str, bytes] | None = None


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


class RemoteStop(Stop):
    """The client's stop (a distributed.Event set on Ctrl-C) seen as the searches see a mols.signals.StopSignals:
    a thread looks at the event every WATCH_SECONDS, and the searches end at their next iteration once it is set,
    each with its archive so far."""

    def __init__(self, event_name: str):
        from distributed import Event

        self.phase, self.signum = "search", None
        self._event, self._done = Event(event_name), threading.Event()
        if self._event.is_set():
            self.signum = signal.SIGINT
            return
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        try:
            while not self._done.is_set():
                if self._event.wait(WATCH_SECONDS):
                    self.signum = signal.SIGINT
                    return
        except Exception:  # noqa: BLE001 - the cluster closing under a finished task: nothing left to stop
            return

    def close(self) -> None:
        self._done.set()


def worker_config(fields: dict, shipped: Shipped | None) -> RunConfig:
    """The configuration on this worker: its instance file where it was shipped, one core on a CPU worker."""
    config = RunConfig(**(fields | ({"instance": str(shipped.path())} if shipped else {})))
    if config.spec.device == "cpu" and config.threads is None:
        config = dataclasses.replace(config, threads=1)
    return config


def check_task(fields: dict, shipped: Shipped | None) -> dict:
    """The configuration as a worker resolves it, its instance read and, on a GPU, its device found: a MolsError
    here is the user's to see, once, rather than every task's on every attempt."""
    from mols.runner import run_problem

    config = worker_config(fields, shipped)
    problem = run_problem(config)
    _bus(config)
    return {"backend": config.backend, "instance": problem.instance_name, "objectives": list(problem.objectives)}


def run_task(fields: dict, seeds: list[int], shipped: Shipped | None, stop_event: str) -> TaskReport:
    """The searches of `fields` (RunConfig's keywords) with these seeds on this worker (module docstring)."""
    from distributed import get_worker

    report = TaskReport(str(get_worker().name), socket.gethostname(), os.environ.get("CUDA_VISIBLE_DEVICES"))
    with ONE_AT_A_TIME:
        stop = RemoteStop(stop_event)
        report.started = time.time()
        try:
            if not stop.requested:
                config = worker_config(fields, shipped)
                report.bus = _bus(config)
                report.outcomes = [_outcome(one, context, result, fields["instance"], report)
                                   for one, context, result in _searches(config, seeds, stop)]
        finally:
            stop.close()
        report.ended = time.time()
    ran = {outcome.seed for outcome in report.outcomes}
    report.outcomes += [Outcome(seed, "not run") for seed in seeds if seed not in ran]
    return report


def _searches(config: RunConfig, seeds: list[int], stop):
    """(config, RunContext, result) of each seed: together where they share launches, else one after another
    (none starts after a stop)."""
    batch = sharing_batch(config, seeds)
    if batch is not None:
        results = batch.run(stop)
        yield from zip(seed_configs(config, seeds), map(RunContext.of, batch.searches), results)
        return
    for one in seed_configs(config, seeds):
        if stop.requested:
            return
        if one.strategy is not None:
            from mols.algorithms.ils3opt.search import config_result

            result, context = config_result(one, stop)
            yield one, context, result
        else:
            search = build_search(one)
            result = search.run(stop)
            yield one, RunContext.of(search), result


def _outcome(config: RunConfig, context: RunContext, result, instance: str, report: TaskReport) -> Outcome:
    """The search's results files, its configuration naming the instance as the client gave it."""
    report.device = context.device
    files = results_files(dataclasses.replace(config, instance=instance), result, context)
    return Outcome(config.seed, result.status, files)


def _bus(config: RunConfig) -> str | None:
    if config.spec.device != "gpu":
        return None
    from mols.backends.cuda import import_cupy

    return import_cupy().cuda.Device().pci_bus_id
