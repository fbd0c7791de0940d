"""Where the driver's tasks run: on Dask (a cluster's client) or on a pool of local worker processes
(concurrent.futures) where Dask is not installed; each executor with the stop its tasks watch and its workers' names."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import traceback
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mols.errors import MolsError
from mols.extras import need
from mols.parallel.cluster import CONNECT_TIMEOUT, open_client
from mols.parallel.workers import core_shares, local_workers, pin
from mols.signals import Stop

EXECUTORS = ("auto", "dask", "processes")
WATCH_SECONDS = 0.2  # how often a running task looks at the driver's stop
_WORKER: dict = {}  # a pool worker's name and the stop it shares with the driver (_start_worker)


class WatchedStop(Stop):
    """The driver's stop seen by a task's searches as they see a mols.signals.StopSignals: a thread asks
    signal_after(seconds) (the driver's signal number once it is set, else None) every WATCH_SECONDS, and the
    searches end at their next iteration once it answers, each with its archive so far."""

    def __init__(self, signal_after: Callable[[float], int | None]):
        self.phase, self._after, self._done = "search", signal_after, threading.Event()
        self.signum = signal_after(0)
        if self.signum is None:
            threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        try:
            while not self._done.is_set():
                signum = self._after(WATCH_SECONDS)
                if signum is not None:
                    self.signum = signum
                    return
        except Exception:  # noqa: BLE001 - the cluster closing under a finished task: nothing left to stop
            return

    def close(self) -> None:
        self._done.set()


@dataclass(frozen=True)
class DaskSide:
    """What a task on a Dask worker sees of its executor (sent with every task): the driver's stop, as a
    distributed.Event and the signal's number in a distributed.Variable of the same name."""

    name: str

    def worker(self) -> str:
        from distributed import get_worker

        return str(get_worker().name)

    def stop(self) -> WatchedStop:
        from distributed import Event, Variable

        event = Event(self.name)

        def signal_after(seconds: float) -> int | None:
            return Variable(self.name).get() if (event.wait(seconds) if seconds else event.is_set()) else None

        return WatchedStop(signal_after)


class DaskExecutor:
    """Tasks on the cluster of a distributed.Client (cluster.open_client)."""

    mode = "dask"

    def __init__(self, client):
        self.client = client

    def new_side(self) -> DaskSide:
        """What the tasks of one driver's run see (their stop its own: the same cluster may serve other runs)."""
        return DaskSide(f"mols-stop-{uuid.uuid4().hex}")

    def workers(self) -> list[str]:
        return sorted(str(w.get("name")) for w in self.client.scheduler_info()["workers"].values())

    def where(self) -> dict:
        return {"scheduler": self.client.scheduler_info().get("address"), "workers": self.workers()}

    def submit(self, fn: Callable, *args, key: str):
        return self.client.submit(fn, *args, key=key, pure=False, retries=0)

    def wait(self, futures: list, seconds: float) -> list:
        from distributed import wait as dask_wait

        try:
            return list(dask_wait(futures, timeout=seconds, return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            return []

    def error(self, future) -> BaseException | None:
        return None if future.status == "finished" else future.exception()

    def trace(self, future, error: BaseException) -> str:
        """The error with the worker's traceback (Dask sends it along)."""
        return "".join(traceback.format_exception(type(error), error, future.traceback())).rstrip()

    def died(self, error: BaseException) -> bool:
        from distributed import KilledWorker

        return isinstance(error, KilledWorker)

    def stop(self, side: DaskSide, signum: int) -> None:
        from distributed import Event, Variable

        Variable(side.name, client=self.client).set(signum)
        Event(side.name, client=self.client).set()


class PoolSide:
    """What a task in a pool worker sees of its executor: the worker's name and the driver's stop (_start_worker)."""

    def worker(self) -> str:
        return _WORKER["name"]

    def stop(self) -> WatchedStop:
        event, signum = _WORKER["event"], _WORKER["signum"]
        return WatchedStop(lambda seconds: signum.value if event.wait(seconds) else None)


def _start_worker(name: str, env: dict[str, str], cores: list[int] | None, event, signum) -> None:
    """A pool worker's set-up: a terminal's Ctrl-C and hang-up left to the driver (it is in the driver's process
    group), its GPU alone (before anything imports CuPy), its cores, the stop it shares with the driver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    os.environ.update(env)
    pin(cores)
    _WORKER.update(name=name, event=event, signum=signum)


class ProcessExecutor:
    """Tasks in local worker processes (spawned), one task at a time each: a single-process pool per worker, so
    that a worker that dies fails its own task alone and is replaced. Tasks wait here for a free worker."""

    mode = "processes"

    def __init__(self, workers: dict[str, dict[str, str]]):
        self.context = multiprocessing.get_context("spawn")
        self.event, self.signum = self.context.Event(), self.context.Value("i", 0)
        self.env, self.cores = workers, core_shares(list(workers))
        self.pools = {name: self._pool(name) for name in workers}
        self.idle, self.queue = list(workers), []
        self.running: dict[Future, tuple[Future, str]] = {}  # a pool's future -> (the task's, its worker)

    def _pool(self, name: str) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=self.context, initializer=_start_worker,
                                   initargs=(name, self.env[name], self.cores.get(name), self.event, self.signum))

    def new_side(self) -> PoolSide:
        """What the tasks of one driver's run see: the workers' stop, cleared (one run at a time)."""
        self.signum.value = 0
        self.event.clear()
        return PoolSide()

    def workers(self) -> list[str]:
        return sorted(self.pools)

    def where(self) -> dict:
        return {"scheduler": None, "workers": self.workers()}

    def submit(self, fn: Callable, *args, key: str) -> Future:
        task = Future()
        self.queue.append((task, fn, args))
        self._start()
        return task

    def _start(self) -> None:
        while self.queue and self.idle:
            task, fn, args = self.queue.pop(0)
            name = self.idle.pop(0)
            self.running[self.pools[name].submit(fn, *args)] = (task, name)

    def wait(self, futures: list[Future], seconds: float) -> list[Future]:
        if self.running:
            wait(list(self.running), timeout=seconds, return_when=FIRST_COMPLETED)
        for inner in [inner for inner in self.running if inner.done()]:
            task, name = self.running.pop(inner)
            error = inner.exception()
            if isinstance(error, BrokenProcessPool):  # its process died: a new one for the next task
                self.pools[name].shutdown(wait=False)
                self.pools[name] = self._pool(name)
            if error is None:
                task.set_result(inner.result())
            else:
                task.set_exception(error)
            self.idle.append(name)
        self._start()
        return [future for future in futures if future.done()]

    def error(self, future: Future) -> BaseException | None:
        return future.exception()

    def trace(self, future: Future, error: BaseException) -> str:
        """The error with the worker's traceback (concurrent.futures chains it as the cause)."""
        return "".join(traceback.format_exception(error)).rstrip()

    def died(self, error: BaseException) -> bool:
        return isinstance(error, BrokenProcessPool)

    def stop(self, side: PoolSide, signum: int) -> None:
        self.signum.value = signum
        self.event.set()

    def close(self) -> None:
        """The workers ended, after their tasks (stopped first where the block left early)."""
        if self.running and not self.event.is_set():
            self.stop(PoolSide(), signal.SIGTERM)
        for pool in self.pools.values():
            pool.shutdown(wait=True, cancel_futures=True)


def executor_kind(executor: str, scheduler: str | None) -> str:
    """dask or processes: `executor` (auto: Dask where its extra is installed), Dask for a scheduler's address."""
    if executor not in EXECUTORS:
        raise MolsError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if scheduler is not None:
        if executor == "processes":
            raise MolsError(f"scheduler {scheduler}: a Dask scheduler needs executor dask, not processes")
        need("dask", "a Dask scheduler (--scheduler)")
        return "dask"
    if executor == "processes":
        return executor
    try:
        need("dask", "the dask executor")
    except MolsError:
        if executor == "dask":
            raise
        return "processes"
    return "dask"


@contextmanager
def open_executor(executor: str, device: str, workers: int | None = None, scheduler: str | None = None,
                  log: Path | None = None, connect_timeout: float = CONNECT_TIMEOUT) -> Iterator:
    """The executor (executor_kind) for the block: Dask's (cluster.open_client: `scheduler`'s cluster, or a local
    one; Dask's messages into `log`), or a pool of local_workers(device, workers); closed on exit."""
    if executor_kind(executor, scheduler) == "dask":
        with open_client(scheduler, device, workers, log, connect_timeout) as client:
            yield DaskExecutor(client)
        return
    pool = ProcessExecutor(local_workers(device, workers))
    try:
        yield pool
    finally:
        pool.close()
