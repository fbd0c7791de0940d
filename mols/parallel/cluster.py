"""The Dask cluster many searches run on: an existing one (its scheduler's address), or a LocalCluster made here
with workers.local_workers' workers, each pinned to cores of its own and running one task at a time."""

from __future__ import annotations

import copy
import logging
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from mols.errors import MolsError
from mols.parallel.logs import log_to, logged_to
from mols.parallel.workers import MAIN_GUARD, core_shares, local_workers, pin

CONNECT_TIMEOUT = 10.0  # seconds for an existing cluster's scheduler to answer and show a worker, in all
START_TIMEOUT = 120.0  # seconds for a local cluster's workers to start


def _plugin_class():
    from distributed.diagnostics.plugin import WorkerPlugin

    class LocalWorkers(WorkerPlugin):
        """Set up each worker of a local cluster, a new one that replaces a dead one too: Ctrl-C and a terminal's
        hang-up left to the command (the workers are in its process group), its Dask messages into the run's log
        (it shares the command's stderr), and the process's threads pinned to its cores."""

        name = "mols-local-workers"

        def __init__(self, shares: dict[str, list[int]], log: Path | None):
            self.shares, self.log = shares, log

        def setup(self, worker) -> None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            if self.log is not None:
                log_to(self.log)
            pin(self.shares.get(str(worker.name)))

    return LocalWorkers


def _local_cluster_class():
    from distributed import LocalCluster

    class GpuCluster(LocalCluster):
        """LocalCluster whose workers are local_workers' GPU workers: gpu-I, seeing GPU I alone."""

        def __init__(self, named: dict[str, dict[str, str]], **kwargs):
            self.named = named  # not `workers`: SpecCluster's own attribute
            super().__init__(n_workers=0, **kwargs)
            self.scale(len(named))

        def new_worker_spec(self) -> dict:
            name = next(name for name in self.named if name not in self.worker_spec)
            spec = copy.deepcopy(self.new_spec)
            spec["options"]["env"] = {**spec["options"].get("env", {}), **self.named[name]}
            return {name: spec}

    return LocalCluster, GpuCluster


@contextmanager
def open_client(scheduler: str | None, device: str, workers: int | None, log: Path | None = None,
                connect_timeout: float = CONNECT_TIMEOUT) -> Iterator:
    """A distributed.Client: of the cluster at `scheduler` (MolsError unless it answers and has a worker within
    `connect_timeout` seconds), or of a local one for `device` (gpu or cpu) with `workers` workers (default: every
    visible GPU, or every core). Dask's messages go to the file `log` meanwhile, where given (logs.py). Closed,
    with a local cluster, on exit."""
    import distributed  # noqa: F401 - Dask's loggers made here, so that logged_to finds them

    log = None if log is None else Path(log).absolute()  # a worker's working folder may differ
    with logged_to(log) if log is not None else nullcontext():
        if scheduler is not None:
            with connect(scheduler, connect_timeout) as client:
                yield client
        else:
            with _local_client(device, workers, log) as client:
                yield client


@contextmanager
def _local_client(device: str, workers: int | None, log: Path | None) -> Iterator:
    """A client of a LocalCluster made for the block (open_client), its workers logging into `log`."""
    import dask
    from distributed import Client

    LocalCluster, GpuCluster = _local_cluster_class()
    options = {"threads_per_worker": 1, "processes": True, "dashboard_address": ":0", "memory_limit": 0,
               "silence_logs": logging.ERROR}
    named = local_workers(device, workers)
    names = list(named)
    # A worker that dies fails its task at once: mols retries it once itself (driver.py).
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        try:
            cluster = (GpuCluster(named, **options) if device == "gpu"
                       else LocalCluster(n_workers=len(names), **options))
        except RuntimeError as err:  # Dask's "Nanny failed to start.": a worker process ended as it started
            raise MolsError(_not_started(f"the local Dask cluster's workers failed to start ({err})", log)) from None
        with cluster, Client(cluster) as client:
            client.register_plugin(_plugin_class()(core_shares(names), log))
            _wait_for_local(client, len(names), log)
            yield client


def _wait_for_local(client, count: int, log: Path | None) -> None:
    """Until the local cluster's `count` workers have started; else a MolsError that says how many did."""
    try:
        client.wait_for_workers(count, timeout=START_TIMEOUT)
    except TimeoutError as err:  # Dask's WorkerStartTimeoutError counts the workers that joined
        started = getattr(err, "available_workers", None)
        started = len(client.scheduler_info().get("workers", {})) if started is None else started
        raise MolsError(_not_started(f"the local Dask cluster started {started} of its {count} workers within "
                                     f"{START_TIMEOUT:g} s", log)) from None


def _not_started(what: str, log: Path | None) -> str:
    """The error of a local cluster whose workers did not start: what happened, where they logged, and the usual
    cause from Python (MAIN_GUARD)."""
    where = f" (their messages: {log})" if log is not None else ""
    return f"{what}{where}; {MAIN_GUARD}"


def connect(scheduler: str, timeout: float):
    """A client of the scheduler at this address that has a worker, within `timeout` seconds in all; else a
    MolsError that names the address and what was wrong."""
    from distributed import Client

    deadline = time.monotonic() + timeout
    try:
        client = Client(scheduler, timeout=timeout)
    except ValueError as err:  # Dask's address parser: no port, an unknown scheme
        raise MolsError(f"--scheduler {scheduler}: not a scheduler address ({err}); give one such as "
                        "tcp://HOST:8786") from None
    except OSError as err:  # Dask tries again until the timeout: nothing answered
        detail = "" if str(err).startswith("Timed out") else f" ({err})"  # Dask's own would repeat the line
        raise MolsError(f"--scheduler {scheduler}: no Dask scheduler answered within {timeout:g} s{detail}; check "
                        "the address and that the scheduler runs, or give a longer --connect-timeout") from None
    except Exception as err:  # noqa: BLE001 - e.g. tls:// without TLS settings: the user's to fix, not a crash
        raise MolsError(f"--scheduler {scheduler}: cannot connect ({type(err).__name__}: {err})") from None
    try:
        client.wait_for_workers(1, timeout=max(0.01, deadline - time.monotonic()))  # 0 would wait for ever
    except BaseException as err:  # a Ctrl-C too: the client closed before it goes on
        client.close()
        if not isinstance(err, TimeoutError):
            raise
        raise MolsError(f"--scheduler {scheduler}: the scheduler has no worker (none joined within {timeout:g} s); "
                        f"start some with `dask worker {scheduler}`, or give a longer --connect-timeout") from None
    return client
