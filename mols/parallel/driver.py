"""The one driver of many searches over processes, GPUs and machines: which searches still have to run, their tasks
on an executor (executors.py), a retry for a task that fails or whose worker dies, each search's folder written as
its task returns, and the merged front and the record rebuilt from the folders at the end (record.py)."""

from __future__ import annotations

import math
import signal
import socket
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from mols.errors import MolsError
from mols.parallel.logs import log, log_file
from mols.parallel.record import (
    MULTISTART,
    WRITERS,
    Written,
    as_json,
    pending_seeds,
    previous_tasks,
    write_merged,
    write_seed,
)
from mols.parallel.task import Outcome, Shipped, TaskReport, check_task, run_task
from mols.parallel.workers import MAIN_GUARD
from mols.results_folder import KINDS, ResultsFolder, sync_disks
from mols.runner import SearchResult

ATTEMPTS = 2  # a task is tried again once
POLL_SECONDS = 0.2


@dataclass
class Task:
    """Seeds run together on one worker, and how each attempt went."""

    index: int
    seeds: list[int]
    attempts: list[dict] = field(default_factory=list)

    def record(self) -> dict:
        last = self.attempts[-1] if self.attempts else {}
        return {"task": self.index, "seeds": self.seeds, "status": last.get("status", "not run"),
                "attempts": self.attempts}


def chunks(seeds: list[int], per_task: int, first: int = 0) -> list[Task]:
    """The seeds in tasks of per_task, numbered from `first`."""
    return [Task(first + i, seeds[start:start + per_task]) for i, start in enumerate(range(0, len(seeds), per_task))]


def default_per_task(fields: dict, searches: int, workers: int) -> int:
    """Searches per task: tabu and ITS spread evenly over the workers (on a GPU they share each launch), any
    other search alone (the workers balance the load)."""
    return math.ceil(searches / max(1, workers)) if fields.get("algorithm") in ("tabu", "its") else 1


class Driver:
    """The searches of one configuration (RunConfig's keywords `fields`) with these seeds on an executor, written
    under `folder`: OUT/seed-S per search, OUT/merged_front.csv and the record `record` (multistart.json or
    batch.json); a failed attempt's traceback goes to the mols.parallel logger (logs.py: OUT/multistart.log, ...).
    resume: only the seeds without a completed run in the folder run (the record's options must match);
    overwrite: a record there is replaced; logs: each search's progress in OUT/seed-S.log (a local executor's);
    keep: each search's SearchResult kept in `results` (solve_many); task: what a worker runs (default:
    task.run_task, looked up when made, so that a test may replace it); checkpoint: seconds between each search's
    checkpoints in OUT/seed-S, from which a retried task, or a run resumed, goes on (on a cluster, where OUT is
    shared; a search whose worker cannot see its folder starts again)."""

    def __init__(self, executor, fields: dict, seeds: list[int], folder: Path, record: str = MULTISTART,
                 per_task: int | None = None, resume: bool = False, overwrite: bool = False, logs: bool = False,
                 keep: bool = False, task: Callable | None = None, checkpoint: float | None = None):
        self.executor, self.fields, self.seeds, self.folder = executor, fields, list(seeds), Path(folder)
        self.record, self.per_task, self.resume, self.overwrite = record, per_task, resume, overwrite
        where = str(self.folder.absolute())  # a worker's working folder may differ
        self.logs = where if logs else None
        self.task, self.shipped, self.keep = task or run_task, Shipped.of(fields["instance"]), keep
        self.log = log_file(self.folder, record)
        self.checkpoints = (where, checkpoint)
        self.home = (where, socket.gethostname())  # workers on this host write their folders
        self.run_id = uuid.uuid4().hex[:8]  # the tasks' keys: the same cluster may serve other runs
        self.side = executor.new_side()
        self.tasks: list[Task] = []
        self.history: list[dict] = []  # the tasks of the runs into this folder before
        self.codes: dict[int, int] = {}
        self.results: dict[int, SearchResult] = {}  # with keep: the searches' results, by seed
        self.written: dict[int, Written] = {}  # the searches written by this run, for the record
        self.writes: list = []  # the folders being written (futures of self.writer's threads)
        self.on_failed: Callable[[Task, str, bool], None] = _quiet

    def check(self) -> dict:
        """The configuration as a worker resolves it: a MolsError from the worker is raised here, and any other
        error as a MolsError in one line (its traceback logged)."""
        future = self.executor.submit(check_task, self.fields, self.shipped, key=f"mols-check-{self.run_id}")
        while not self.executor.wait([future], POLL_SECONDS):
            pass
        error = self.executor.error(future)
        if error is None:
            return future.result()
        if isinstance(error, MolsError):  # the worker's machine may differ from this one: say where it was found
            raise MolsError(f"on a worker: {error}") from None
        log.error("checking the configuration on a worker failed:\n%s", self.executor.trace(future, error))
        guard = f"; {MAIN_GUARD}" if self.executor.died(error) else ""  # the first task: a worker that never ran
        raise MolsError(f"a worker could not check the configuration ({self.summary(error)}); its traceback is in "
                        f"{self.log}{guard}") from None

    def run(self, stop, on_search: Callable[[int], None] = lambda done: None,
            on_failed: Callable[[Task, str, bool], None] | None = None) -> dict:
        """Every pending search to its end (or until `stop`, a mols.signals.StopSignals, is requested: the running
        searches then end at their next iteration and write their archive so far, no other starts); returns the
        record's content. on_search(searches done) as each task ends; on_failed(task, why in a few words,
        whether it is tried again) as an attempt fails."""
        self.on_failed = on_failed or _quiet
        resume = self.resume and not self.overwrite
        kind = next(kind for kind, name in KINDS.items() if name == self.record)
        with ResultsFolder(self.folder, overwrite=self.resume or self.overwrite, kind=kind) as out:  # one at a time
            self.history = previous_tasks(self.folder, self.fields, self.record) if resume else []
            pending = pending_seeds(self.folder, self.seeds) if resume else self.seeds
            self.codes = {seed: 0 for seed in self.seeds if seed not in pending}
            workers = len(self.executor.workers())
            per_task = self.per_task or default_per_task(self.fields, len(pending), workers)
            self.tasks = chunks(pending, per_task, len(self.history))
            with ThreadPoolExecutor(WRITERS, thread_name_prefix="mols-write") as self.writer:
                self._run_tasks(stop, on_search)
                for write in self.writes:
                    write.result()  # a folder that could not be written: its MolsError
            sync_disks()  # the folders on the disk before the record that names them
            out.written = True
            return self.write_record()

    def _run_tasks(self, stop, on_search) -> None:
        futures = {self._submit(task): task for task in self.tasks}
        stopping = False
        while futures:
            if stop.requested and not stopping:  # a stop of no signal (a test's): as Ctrl-C
                self.executor.stop(self.side, stop.signum or signal.SIGINT)
                stopping = True
            for future in self.executor.wait(list(futures), POLL_SECONDS):
                task = futures.pop(future)
                if self._settle(task, future) and not stopping:
                    futures[self._submit(task)] = task
                on_search(len(self.codes))

    def _submit(self, task: Task):
        return self.executor.submit(self.task, self.fields, task.seeds, self.shipped, self.side, self.logs,
                                    self.checkpoints, self.home, self.keep,
                                    key=f"mols-task-{task.index}-{len(task.attempts)}-{self.run_id}")

    def _settle(self, task: Task, future) -> bool:
        """Write what the task's attempt found; whether to try it again."""
        error = self.executor.error(future)
        if error is None:
            report: TaskReport = future.result()
            task.attempts.append({"status": "finished", **_where(report)})
            for outcome in report.outcomes:
                self._write(outcome)
            return False
        task.attempts.append({"status": "failed", "error": "".join(
            traceback.format_exception_only(type(error), error)).strip()})
        again = len(task.attempts) < ATTEMPTS
        log.error("task %d (seeds %s), attempt %d of %d failed:\n%s", task.index, task.seeds, len(task.attempts),
                  ATTEMPTS, self.executor.trace(future, error))
        self.on_failed(task, self.summary(error), again)
        return again

    def _write(self, outcome: Outcome) -> None:
        if outcome.written is not None:  # its worker, on this host, wrote its folder
            self.written[outcome.seed] = outcome.written
        elif outcome.files is not None:
            self.writes.append(self.writer.submit(write_seed, self.folder, outcome.seed, outcome.files, durable=False))
            if outcome.result is not None:
                self.written[outcome.seed] = Written.of(outcome.files, outcome.result.archive.F)
        if self.keep and outcome.result is not None:
            self.results[outcome.seed] = outcome.result
        if outcome.code is not None:
            self.codes[outcome.seed] = outcome.code

    def write_record(self) -> dict:
        """OUT/merged_front.csv and the record from the seeds' folders (record.write_merged)."""
        extra = {"options": as_json(self.fields), **self.executor.where(),
                 "tasks": self.history + [task.record() for task in self.tasks]}
        return write_merged(self.folder, self.seeds, self.codes, self.executor.mode, self.record, extra,
                            self.written)

    def summary(self, error: BaseException) -> str:
        """A failed attempt in a few words: that its worker died, or the error's type and first line."""
        if self.executor.died(error):
            return "its worker died"
        first = next(iter(str(error).splitlines()), "")
        return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _quiet(task: Task, why: str, again: bool) -> None:
    """A failed attempt where no one asked to hear of it: the log and the record hold it."""


def _where(report: TaskReport) -> dict:
    return {"worker": report.worker, "host": report.host, "gpu": report.gpu, "gpu_bus": report.bus,
            "device": report.device, "started": report.started, "ended": report.ended,
            "seconds": round(report.ended - report.started, 6),
            "searches": {str(o.seed): o.status for o in report.outcomes}}
