"""The client's side of a multistart: which searches still have to run, their tasks on the cluster, a retry for a
task that fails or whose worker dies, each search's folder written as its task returns, and the merged archive
and the manifest rebuilt from the folders at the end (so a rerun into the same folder resumes)."""

from __future__ import annotations

import json
import math
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mols.batch import EXIT_CODES, seed_folder, write_merged
from mols.errors import MolsError
from mols.multistart.logs import LOG, log
from mols.multistart.task import Shipped, TaskReport, check_task, run_task
from mols.results import MANIFEST, ResultsFolder
from mols.results_folder import KINDS

MULTISTART = KINDS["multistart"]
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


def previous_tasks(folder: Path, fields: dict, overwrite: bool) -> list[dict]:
    """The tasks of the multistart already in folder (none with overwrite); MolsError where it had other options."""
    manifest = folder / MULTISTART
    if overwrite or not manifest.is_file():
        return []
    try:
        before = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return []
    if before.get("options") != as_json(fields):
        raise MolsError(f"{folder} holds a multistart of other options ({MULTISTART}); give --overwrite to replace "
                        "it, or choose another --output")
    return before.get("tasks", [])


def as_json(fields: dict) -> dict:
    """The options as multistart.json keeps them (tuples as lists), to compare a rerun's with."""
    return json.loads(json.dumps(fields))


def pending_seeds(folder: Path, seeds: list[int], overwrite: bool) -> list[int]:
    """The seeds whose folder holds no completed run (all of them with overwrite)."""
    return list(seeds) if overwrite else [s for s in seeds if _status(seed_folder(folder, s) / MANIFEST) != "completed"]


def _status(path: Path) -> str | None:
    try:
        return json.loads(path.read_text()).get("status")
    except (OSError, ValueError):
        return None


def chunks(seeds: list[int], per_task: int, first: int = 0) -> list[Task]:
    """The seeds in tasks of per_task, numbered from `first`."""
    return [Task(first + i, seeds[start:start + per_task]) for i, start in enumerate(range(0, len(seeds), per_task))]


def default_per_task(fields: dict, searches: int, workers: int) -> int:
    """Searches per task: tabu and ITS spread evenly over the workers (on a GPU they share each launch), any
    other search alone (the workers balance the load)."""
    return math.ceil(searches / max(1, workers)) if fields.get("algorithm") in ("tabu", "its") else 1


class Multistart:
    """K searches of one configuration (RunConfig's keywords `fields`, seeds fields["seed"] ..) on a Dask
    client's cluster, written under `folder`: OUT/seed-S per search, OUT/merged_front.csv and OUT/multistart.json;
    a failed attempt's traceback goes to the mols.multistart logger (logs.py: OUT/multistart.log). `task`: what a
    worker runs (default: task.run_task, looked up when made, so that a test may replace it)."""

    def __init__(self, client, fields: dict, searches: int, folder: Path, per_task: int | None = None,
                 overwrite: bool = False, task: Callable | None = None):
        self.client, self.fields, self.folder, self.task = client, fields, Path(folder), task or run_task
        self.seeds = list(range(fields.get("seed", 0), fields.get("seed", 0) + searches))
        self.overwrite, self.per_task = overwrite, per_task
        self.shipped = Shipped.of(fields["instance"])
        self.stop_event = f"mols-stop-{uuid.uuid4().hex}"
        self.tasks: list[Task] = []
        self.history: list[dict] = []  # the tasks of the runs into this folder before
        self.codes: dict[int, int] = {}
        self.on_failed: Callable[[Task, str, bool], None] = _quiet

    def check(self) -> dict:
        """The configuration as a worker resolves it: a MolsError from the worker is raised here, and any other
        error as a MolsError in one line (its traceback logged)."""
        future = self.client.submit(check_task, self.fields, self.shipped, pure=False)
        try:
            return future.result()
        except MolsError as err:  # the worker's machine may differ from this one: say where it was found
            raise MolsError(f"on a worker: {err}") from None
        except Exception as err:  # noqa: BLE001 - e.g. mols missing on a worker: a line here, the rest in the log
            log.error("checking the configuration on a worker failed:\n%s", _traceback(err, future))
            raise MolsError(f"a worker could not check the configuration ({summary(err)}); its traceback is in "
                            f"{self.folder / LOG}") from None

    def run(self, stop, on_search: Callable[[int], None] = lambda done: None,
            on_failed: Callable[[Task, str, bool], None] | None = None) -> dict:
        """Every pending search to its end (or until `stop`, a mols.signals.StopSignals, is requested: the running
        searches then end at their next iteration and write their archive so far, no other starts); returns the
        manifest's content. on_search(searches done) as each task ends; on_failed(task, why in a few words,
        whether it is tried again) as an attempt fails."""
        self.on_failed = on_failed or _quiet
        with ResultsFolder(self.folder, overwrite=True, kind="multistart") as out:  # one multistart at a time
            self.history = previous_tasks(self.folder, self.fields, self.overwrite)
            pending = pending_seeds(self.folder, self.seeds, self.overwrite)
            self.codes = {seed: 0 for seed in self.seeds if seed not in pending}
            workers = len(self.client.scheduler_info()["workers"])
            per_task = self.per_task or default_per_task(self.fields, len(pending), workers)
            self.tasks = chunks(pending, per_task, len(self.history))
            self._run_tasks(stop, on_search)
            out.written = True
            return self.write_manifest()

    def _run_tasks(self, stop, on_search) -> None:
        from distributed import Event, wait

        futures = {self._submit(task): task for task in self.tasks}
        stopping = False
        while futures:
            if stop.requested and not stopping:
                Event(self.stop_event, client=self.client).set()
                stopping = True
            try:
                done = wait(list(futures), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            for future in done:
                task = futures.pop(future)
                if self._settle(task, future) and not stopping:
                    futures[self._submit(task)] = task
                on_search(len(self.codes))

    def _submit(self, task: Task):
        key = f"mols-task-{task.index}-{len(task.attempts)}-{self.stop_event[-8:]}"
        return self.client.submit(self.task, self.fields, task.seeds, self.shipped, self.stop_event, key=key,
                                  pure=False, retries=0)

    def _settle(self, task: Task, future) -> bool:
        """Write what the task's attempt found; whether to try it again."""
        attempt = {"submitted_key": future.key}
        if future.status == "finished":
            report: TaskReport = future.result()
            attempt |= {"status": "finished", **_where(report)}
            for outcome in report.outcomes:
                if outcome.files is not None:
                    with ResultsFolder(seed_folder(self.folder, outcome.seed), overwrite=True) as out:
                        out.write_files(outcome.files)
                if outcome.status != "not run":
                    self.codes[outcome.seed] = EXIT_CODES.get(outcome.status, 130)
            task.attempts.append(attempt)
            return False
        error = future.exception()
        attempt |= {"status": "failed", "error": "".join(traceback.format_exception_only(type(error), error)).strip()}
        task.attempts.append(attempt)
        again = len(task.attempts) < ATTEMPTS
        log.error("task %d (seeds %s), attempt %d of %d failed:\n%s", task.index, task.seeds, len(task.attempts),
                  ATTEMPTS, _traceback(error, future))
        self.on_failed(task, summary(error), again)
        return again

    def write_manifest(self) -> dict:
        """OUT/merged_front.csv and OUT/multistart.json from the seeds' folders (batch.write_merged)."""
        info = self.client.scheduler_info()
        extra = {"options": as_json(self.fields), "scheduler": info.get("address"),
                 "workers": sorted(str(w.get("name")) for w in info["workers"].values()),
                 "tasks": self.history + [task.record() for task in self.tasks]}
        return write_merged(self.folder, self.seeds, self.codes, "dask", MULTISTART, extra)


def _quiet(task: Task, why: str, again: bool) -> None:
    """A failed attempt where no one asked to hear of it: the log and multistart.json hold it."""


def summary(error: BaseException) -> str:
    """A failed attempt in a few words: that its worker died, or the error's type and first line."""
    from distributed import KilledWorker

    if isinstance(error, KilledWorker):
        return "its worker died"
    first = next(iter(str(error).splitlines()), "")
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _traceback(error: BaseException, future) -> str:
    """The error with the worker's traceback (Dask sends it along)."""
    return "".join(traceback.format_exception(type(error), error, future.traceback())).rstrip()


def _where(report: TaskReport) -> dict:
    return {"worker": report.worker, "host": report.host, "gpu": report.gpu, "gpu_bus": report.bus,
            "device": report.device,
            "started": report.started, "ended": report.ended, "seconds": round(report.ended - report.started, 6),
            "searches": {str(o.seed): o.status for o in report.outcomes}}
