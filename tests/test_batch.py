"""`mols run --batch`: each search of a batch finds what it finds alone, the merged front is the best of
their fronts, and a stop writes every running search's archive so far and the merged front of them."""

from __future__ import annotations

import dataclasses
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from mols.parallel.record import BATCH, MERGED, merge_fronts, seed_folder
from mols.parallel.task import worker_config
from mols.problems import load_problem
from mols.results import front_csv
from mols.runner import RunConfig, build_search
from tests.test_processes import ROOT, check_complete, finish

TABU = ["020_05_01", "-a", "tabu", "-b", "cpu", "-i", "150"]


def mols_run(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mols", "run", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def dominated(F: np.ndarray) -> np.ndarray:
    """Rows some other row dominates, by plain comparison."""
    return np.array([any((g <= f).all() and (g < f).any() for g in F) for f in F])


def fronts_as_alone(folder, config: RunConfig, size: int) -> list[pd.DataFrame]:
    """The fronts of the batch's complete folders, each checked equal to the run of its seed alone."""
    fronts = []
    for seed in range(config.seed, config.seed + size):
        check_complete(seed_folder(folder, seed), "completed")
        search = build_search(dataclasses.replace(config, seed=seed))
        alone = front_csv(search.run(), search.problem.objectives, search.problem.encoding)
        assert (seed_folder(folder, seed) / "front.csv").read_bytes() == alone
        fronts.append(pd.read_csv(seed_folder(folder, seed) / "front.csv", dtype={"solution": str}))
    return fronts


def test_each_search_of_a_batch_finds_what_it_finds_alone(tmp_path):
    code, output = finish(mols_run(*TABU, "--seed", "4", "--batch", "3", "--threads", "2", "-o", str(tmp_path)))
    assert code == 0, output
    record = json.loads((tmp_path / BATCH).read_text())
    assert [s["seed"] for s in record["searches"]] == [4, 5, 6]
    config = RunConfig(instance="020_05_01", algorithm="tabu", backend="cpu", iterations=150, seed=4)
    fronts = [got.assign(seed=seed) for seed, got in zip((4, 5, 6), fronts_as_alone(tmp_path, config, 3))]
    both = pd.concat(fronts, ignore_index=True)
    objectives = list(load_problem("flowshop", "020_05_01").objectives)
    best = both[~dominated(both[objectives].to_numpy())]
    merged = pd.read_csv(tmp_path / MERGED, dtype={"solution": str})
    assert len(merged) == record["merged"]["rows"] > 0
    assert set(map(tuple, merged[objectives].to_numpy())) == set(map(tuple, best[objectives].to_numpy()))


@pytest.mark.gpu
def test_a_gpu_batch_shares_each_launch_and_finds_what_each_search_finds_alone(tmp_path):
    """On the GPU the tabu searches of a batch run in one process, their runs side by side (batch.json: mode
    "one launch"), and each folder holds the front of its seed's run alone."""
    code, output = finish(mols_run("020_10_01", "-a", "tabu", "-b", "gpu", "-i", "400", "--seed", "2", "--batch", "4",
                                   "-o", str(tmp_path)))
    assert code == 0, output
    record = json.loads((tmp_path / BATCH).read_text())
    assert record["mode"] == "one launch" and [s["status"] for s in record["searches"]] == ["completed"] * 4
    assert not list(tmp_path.glob(".*.lock"))  # the run holds its folder: no search's folder has a lock of its own
    fronts_as_alone(tmp_path, RunConfig(instance="020_10_01", algorithm="tabu", backend="gpu", iterations=400, seed=2), 4)


def test_the_merged_front_of_one_objective_is_its_best_rows():
    fronts = [pd.DataFrame({"cost": [5, 7], "solution": ["a", "b"], "seed": 0}),
              pd.DataFrame({"cost": [5, 3, 3], "solution": ["c", "d", "e"], "seed": 1})]
    merged = merge_fronts(fronts, ["cost"])
    assert merged["solution"].tolist() == ["d", "e"] and merged["cost"].tolist() == [3, 3]


@pytest.mark.parametrize("options", [
    {"problem": "qap", "algorithm": "its", "weights": (0.25, 0.75), "tenure": 4, "objectives": "cost, cost_2"},
    {"problem": "qap", "algorithm": "tabu", "backend": "gpu", "block": 64},
    {"problem": "qap", "algorithm": "tabu", "backend": "gpu", "tune": True},
    {"time": 2.5, "evaluations": 1000, "target": (1.0, 2.5)}])
def test_a_worker_gets_the_configuration_of_the_batch(options):
    """A search of the driver is its RunConfig's keywords made again on the worker: every option and budget kept,
    one core on a CPU worker."""
    config = RunConfig(instance="tai12a", iterations=9, seed=3, **({"backend": "cpu"} | options))
    again = worker_config(config.record(), None)
    assert again == dataclasses.replace(config, threads=1 if config.spec.device == "cpu" else None)


def test_a_stop_writes_every_running_search_and_the_merged_front(tmp_path):
    child = mols_run("020_05_01", "-b", "cpu", "-i", "100000000", "--batch", "3", "--threads", "2",
                     "-o", str(tmp_path))
    deadline = time.monotonic() + 120
    logs = [seed_folder(tmp_path, seed).with_suffix(".log") for seed in (0, 1)]
    while time.monotonic() < deadline and not all(p.exists() and "iterations, archive" in p.read_text() for p in logs):
        time.sleep(0.1)
    child.send_signal(signal.SIGINT)
    code, output = finish(child)
    assert code == 130, output
    record = json.loads((tmp_path / BATCH).read_text())
    assert [s["status"] for s in record["searches"]] == ["interrupted", "interrupted", "not run"]
    for seed in (0, 1):
        assert check_complete(seed_folder(tmp_path, seed), "interrupted", "SIGINT")["iterations"] > 0
    assert len(pd.read_csv(tmp_path / MERGED)) == record["merged"]["rows"] > 0


def test_a_folder_holding_a_batch_is_refused_without_overwrite(tmp_path):
    (tmp_path / BATCH).write_text("{}")
    code, output = finish(mols_run(*TABU, "--batch", "2", "-o", str(tmp_path)))
    assert code == 1 and "holds a" in output and "batch already" in output and "Traceback" not in output


def test_without_dask_a_batch_runs_on_a_pool_of_processes(tmp_path, monkeypatch):
    """The driver's other executor: the same folders, logs, merged front and record."""
    from typer.testing import CliRunner

    import mols.extras
    from mols.cli import app

    monkeypatch.setattr(mols.extras, "find_spec", lambda module: None if module in ("dask", "distributed") else 1)
    result = CliRunner().invoke(app, ["run", *TABU, "--seed", "1", "--batch", "2", "--threads", "2",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / BATCH).read_text())
    assert record["mode"] == "processes" and [s["log"] for s in record["searches"]] == ["seed-1.log", "seed-2.log"]
    assert "iterations, archive" in (tmp_path / "seed-1.log").read_text()
    config = RunConfig(instance="020_05_01", algorithm="tabu", backend="cpu", iterations=150, seed=1)
    assert len(fronts_as_alone(tmp_path, config, 2)) == 2 and record["merged"]["rows"] > 0


class Unstopped:
    requested, signum, exit_code, phase = False, None, None, "setup"


def test_a_batch_in_one_process_holds_its_folder_and_writes_each_search_as_alone(monkeypatch, tmp_path):
    """run_together (a batch sharing each launch on the GPU; here its searches on the CPU, one after another): each
    folder holds the front of its seed's run alone, no other run can take the folder while the searches run, and no
    search's folder has a lock of its own."""
    from mols.errors import MolsError
    from mols.parallel import together
    from mols.results_folder import ResultsFolder
    from mols.runner.batch import build_batch

    monkeypatch.setattr(together, "sharing_batch", build_batch)
    refused = []

    def meanwhile(done: int) -> None:
        if not refused:
            with pytest.raises(MolsError, match="in use by another mols run"), ResultsFolder(tmp_path, kind="batch"):
                pass
            refused.append(done)

    config = RunConfig(instance="020_05_01", algorithm="tabu", backend="cpu", iterations=150, seed=4)
    record = together.run_together(config, 3, tmp_path, False, Unstopped(), meanwhile)
    assert [s["status"] for s in record["searches"]] == ["completed"] * 3 and refused
    assert sorted(path.name for path in tmp_path.iterdir()) == [BATCH, MERGED, "seed-4", "seed-5", "seed-6"]
    fronts_as_alone(tmp_path, config, 3)
