"""A task's worker on the client's host writes its searches' folders itself; elsewhere the files travel back. A task's
searches share the problem it loads once, and each gives what it gives alone."""

from __future__ import annotations

import json
import socket
import threading

import numpy as np

from mols.parallel import task
from mols.parallel.executors import WatchedStop
from mols.parallel.record import seed_folder
from mols.parallel.task import home_folder, run_task
from mols.results import FRONT, MANIFEST
from mols.runner import RunConfig, run_problem, solve

FIELDS = {"instance": "tai12a", "problem": "qap", "algorithm": "hc", "iterations": 3, "backend": "cpu"}


class Side:
    """A task's executor side in this process: a stop never requested."""

    def worker(self) -> str:
        return "here"

    def stop(self) -> WatchedStop:
        return WatchedStop(never)


def never(seconds: float) -> None:
    """The driver's signal after `seconds`: none."""
    threading.Event().wait(seconds)


def test_the_home_folder_is_the_runs_where_the_worker_shares_the_clients_host_and_sees_it(tmp_path):
    host = socket.gethostname()
    assert home_folder((str(tmp_path), host)) == tmp_path
    assert home_folder((str(tmp_path), f"not-{host}")) is None
    assert home_folder((str(tmp_path / "missing"), host)) is None
    assert home_folder(None) is None


def test_a_worker_on_the_clients_host_writes_the_folders_and_one_elsewhere_sends_the_files(tmp_path):
    here = run_task(FIELDS, [0, 1], None, Side(), home=(str(tmp_path), socket.gethostname()))
    away = run_task(FIELDS, [0, 1], None, Side(), home=(str(tmp_path / "away"), f"not-{socket.gethostname()}"))
    for written, sent in zip(here.outcomes, away.outcomes, strict=True):
        assert written.files is None and sent.written is None and written.status == sent.status == "completed"
        folder = seed_folder(tmp_path, written.seed)
        assert (folder / FRONT).read_bytes() == written.written.front == sent.files[FRONT]
        assert json.loads((folder / MANIFEST).read_text()) == written.written.manifest
        np.testing.assert_array_equal(written.written.F, sent.result.archive.F)
    assert not (tmp_path / "away").exists()


def test_a_written_search_sends_its_result_back_only_where_the_client_keeps_results(tmp_path):
    """The client settles tasks one at a time: a search its worker wrote sends back what the record needs (Written),
    and its whole SearchResult only for a caller that keeps the results (solve_many); files that travel keep it."""
    home = (str(tmp_path), socket.gethostname())
    light = run_task(FIELDS, [0, 1], None, Side(), home=home, keep=False)
    whole = run_task(FIELDS, [2], None, Side(), home=home, keep=True)
    away = run_task(FIELDS, [3], None, Side(), home=(str(tmp_path / "away"), "not-here"), keep=False)
    assert all(o.result is None and o.written is not None and o.code == 0 for o in light.outcomes)
    assert whole.outcomes[0].result.archive.F.shape == whole.outcomes[0].written.F.shape
    assert away.outcomes[0].result is not None and away.outcomes[0].files is not None


def test_a_tasks_searches_read_the_instance_once_and_each_gives_what_it_gives_alone(monkeypatch):
    fields = {"instance": "tai12a", "problem": "qap", "algorithm": "its", "iterations": 40, "backend": "cpu",
              "run_length": 10}
    loads = []
    monkeypatch.setattr(task, "run_problem", lambda config: loads.append(config.seed) or run_problem(config))
    report = run_task(fields, [3, 4, 5], None, Side())
    assert len(loads) == 1
    for outcome in report.outcomes:
        alone = solve(RunConfig(**fields, seed=outcome.seed, threads=1))
        np.testing.assert_array_equal(outcome.result.archive.F, alone.archive.F)
        np.testing.assert_array_equal(outcome.result.archive.X, alone.archive.X)
        assert outcome.result.iterations == alone.iterations
