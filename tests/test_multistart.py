"""The driver of many searches (mols multistart's) on Dask distributed: a local cluster of two CPU workers (and, with
the gpu marker, one worker per GPU), an external scheduler with two `dask worker` processes; faults, resuming and
stopping, on Dask and on a pool of local processes (the command: test_multistart_command.py)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from mols.errors import MolsError
from mols.parallel import Driver
from mols.parallel.cluster import open_client
from mols.parallel.executors import DaskExecutor, open_executor
from mols.parallel.record import MULTISTART, merge_fronts, unfinished
from mols.parallel.task import run_task
from mols.parallel.workers import visible_gpus
from mols.results import FRONT, MANIFEST, RunContext, results_files
from mols.runner import RunConfig, build_search

QAP = {"instance": "tai12a", "problem": "qap", "algorithm": "tabu", "backend": "cpu", "iterations": 40, "seed": 3}
PLS = {"instance": "020_10_01", "problem": "flowshop", "algorithm": "pls", "backend": "cpu", "iterations": 25,
       "seed": 0}


class NoStop:
    requested, signum, phase = False, None, "search"


class TimedStop(NoStop):
    """A stop asked for `after` seconds from its making (a Ctrl-C in the middle of the searches)."""

    def __init__(self, after: float):
        self.at = time.monotonic() + after

    @property
    def requested(self) -> bool:
        return time.monotonic() >= self.at


LOG = "multistart.log"


@pytest.fixture(scope="module")
def client():
    with open_client(None, "cpu", 2) as client:
        yield client


@pytest.fixture(scope="module")
def pool():
    with open_executor("processes", "cpu", 2) as executor:
        yield executor


def fronts_one_by_one(fields: dict, seeds) -> dict[int, bytes]:
    """Each seed's front.csv as `mols run` of that seed alone writes it, run here one after another."""
    fronts = {}
    for seed in seeds:
        config = RunConfig(**(fields | {"seed": seed, "threads": 1}))
        search = build_search(config)
        fronts[seed] = results_files(config, search.run(), RunContext.of(search))[FRONT]
    return fronts


def merged_of(fronts: dict[int, bytes], objectives: list[str]) -> pd.DataFrame:
    frames = [pd.read_csv(io.BytesIO(data), dtype={"solution": str}).assign(seed=seed) for seed, data in fronts.items()]
    return merge_fronts(frames, objectives).reset_index(drop=True)


def read_merged(folder: Path) -> pd.DataFrame:
    return pd.read_csv(folder / "merged_front.csv", dtype={"solution": str})


def driver(client_or_pool, fields, searches, folder, **options) -> Driver:
    """The driver of `searches` searches from fields' seed on a Dask client's cluster, or on a pool executor."""
    executor = DaskExecutor(client_or_pool) if hasattr(client_or_pool, "scheduler_info") else client_or_pool
    seeds = range(fields["seed"], fields["seed"] + searches)
    return Driver(executor, fields, seeds, folder, MULTISTART, resume=True, **options)


def run(client_or_pool, fields, searches, folder, stop=None, **options) -> dict:
    return driver(client_or_pool, fields, searches, folder, **options).run(stop or NoStop())


def test_merged_front_is_the_nondominated_union_of_the_searches_run_one_by_one(client, tmp_path):
    record = run(client, PLS, 4, tmp_path)
    alone = fronts_one_by_one(PLS, range(4))
    for seed, front in alone.items():
        assert (tmp_path / f"seed-{seed}" / FRONT).read_bytes() == front
    objectives = ["makespan", "total_tardiness", "n_tardy"]
    pd.testing.assert_frame_equal(read_merged(tmp_path), merged_of(alone, objectives), check_dtype=False)
    assert [s["status"] for s in record["searches"]] == ["completed"] * 4
    tasks = record["tasks"]
    assert sorted(seed for t in tasks for seed in t["seeds"]) == [0, 1, 2, 3]  # PLS: one search per task
    assert {t["attempts"][0]["worker"] for t in tasks} <= set(record["workers"])
    # the searches' folders and the record, with no lock file of a search's own (the run holds the folder)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "merged_front.csv", "multistart.json", *(f"seed-{seed}" for seed in range(4))]


def test_tabu_searches_are_spread_evenly_over_the_workers_in_tasks(client, tmp_path):
    record = run(client, QAP, 4, tmp_path)
    assert [t["seeds"] for t in record["tasks"]] == [[3, 4], [5, 6]]
    alone = fronts_one_by_one(QAP, range(3, 7))
    pd.testing.assert_frame_equal(read_merged(tmp_path), merged_of(alone, ["cost"]), check_dtype=False)


def failing_task(fields, seeds, *rest):
    """run_task, except that a task holding seed 4 raises."""
    if 4 in seeds:
        raise RuntimeError("a fault in seed 4's task")
    return run_task(fields, seeds, *rest)


@pytest.mark.parametrize("executor", ["client", "pool"])
def test_a_task_that_raises_is_tried_again_then_reported_and_the_others_finish(executor, request, tmp_path):
    record = run(request.getfixturevalue(executor), QAP, 3, tmp_path, per_task=1, task=failing_task)
    by_seed = {t["seeds"][0]: t for t in record["tasks"]}
    assert by_seed[4]["status"] == "failed"
    assert [a["status"] for a in by_seed[4]["attempts"]] == ["failed", "failed"]
    assert "a fault in seed 4's task" in by_seed[4]["attempts"][-1]["error"]
    assert by_seed[3]["status"] == by_seed[5]["status"] == "finished"
    assert {s["seed"]: s["status"] for s in record["searches"]} == {3: "completed", 4: "not run", 5: "completed"}
    assert "seed 4" in unfinished(record)
    assert set(read_merged(tmp_path)["seed"]) <= {3, 5}


def dying_task(fields, seeds, *rest):
    """run_task, except that the first time a task is tried its worker process dies."""
    marker = Path(fields["marker"])
    if not marker.exists():
        marker.write_text("died once")
        os._exit(1)
    return run_task({k: v for k, v in fields.items() if k != "marker"}, seeds, *rest)


@pytest.mark.parametrize("executor, error", [("client", "KilledWorker"), ("pool", "BrokenProcessPool")])
def test_a_task_whose_worker_dies_runs_again_on_a_worker(executor, error, request, tmp_path):
    fields = QAP | {"marker": str(tmp_path / "marker")}
    on = request.getfixturevalue(executor)
    failed = []
    record = driver(on, fields, 1, tmp_path / "out", task=dying_task).run(NoStop(), on_failed=lambda task, why, again:
                                                                           failed.append((why, again)))
    (task,) = record["tasks"]
    assert [a["status"] for a in task["attempts"]] == ["failed", "finished"]
    assert error in task["attempts"][0]["error"] and failed == [("its worker died", True)]
    assert (tmp_path / "out" / "seed-3" / FRONT).read_bytes() == fronts_one_by_one(QAP, [3])[3]
    if executor == "client":
        on.wait_for_workers(2, timeout=60)  # the nanny has started a new worker for the module's next tests


def test_a_configuration_a_worker_cannot_run_is_refused_once_before_the_tasks(client, tmp_path):
    if visible_gpus():
        pytest.skip("the workers have a GPU")
    with pytest.raises(MolsError, match="^(on a worker: |a worker could not check)"):  # no CuPy, or no device
        driver(client, QAP | {"backend": "gpu"}, 2, tmp_path).check()


def process_cores() -> list[list[int]]:
    """The cores of every thread of this process."""
    return sorted({tuple(sorted(os.sched_getaffinity(int(t)))) for t in os.listdir("/proc/self/task")})


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this system")
def test_local_workers_keep_to_cores_of_their_own(client):
    """A replacement worker too (the test above killed one)."""
    cores = list(client.run(process_cores).values())
    assert all(len(threads) == 1 for threads in cores)  # every thread of a worker on the same cores
    assert len({threads[0] for threads in cores}) == len(cores) == 2


def test_a_rerun_into_the_same_folder_runs_only_the_missing_searches(client, tmp_path):
    first = run(client, QAP, 4, tmp_path, per_task=1)
    before = read_merged(tmp_path)
    for name in (MANIFEST, FRONT):
        (tmp_path / "seed-5" / name).unlink()
    again = run(client, QAP, 4, tmp_path, per_task=1)
    assert [t["seeds"] for t in again["tasks"]] == [t["seeds"] for t in first["tasks"]] + [[5]]
    pd.testing.assert_frame_equal(read_merged(tmp_path), before)
    with pytest.raises(Exception, match="holds a multistart of other options"):
        run(client, QAP | {"iterations": 41}, 4, tmp_path)


@pytest.mark.parametrize("executor", ["client", "pool"])
def test_a_stop_ends_the_running_searches_which_keep_their_archive(executor, request, tmp_path):
    fields = QAP | {"iterations": None, "time": 60.0}
    start = time.monotonic()
    after = 4.0 if executor == "client" else 10.0  # a pool's replaced worker (the test above) starts cold
    record = run(request.getfixturevalue(executor), fields, 2, tmp_path, stop=TimedStop(after), per_task=1)
    assert time.monotonic() - start < 40
    for seed in (3, 4):
        manifest = json.loads((tmp_path / f"seed-{seed}" / MANIFEST).read_text())
        assert manifest["status"] == "interrupted" and manifest["iterations"] > 0
        assert manifest["archive_size"] >= 1
    assert {s["status"] for s in record["searches"]} == {"interrupted"}


@pytest.fixture
def dask_cluster(tmp_path):
    """A scheduler and two workers started as a user starts them: `dask scheduler`, `dask worker`."""
    file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")])}
    processes = [subprocess.Popen([*dask, "scheduler", "--scheduler-file", str(file), "--port", "0", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)]
    deadline = time.monotonic() + 60
    while not file.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    processes += [subprocess.Popen([*dask, "worker", "--scheduler-file", str(file), "--nthreads", "1",
                                    "--no-dashboard", "--name", f"w{i}"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=env) for i in range(2)]
    try:
        yield json.loads(file.read_text())["address"]
    finally:
        for process in processes[::-1]:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)


def test_an_existing_cluster_of_dask_workers_gives_the_same_results(dask_cluster, tmp_path):
    with open_client(dask_cluster, "cpu", None, connect_timeout=60) as client:  # the workers may start slowly
        client.wait_for_workers(2, timeout=60)
        record = run(client, QAP, 4, tmp_path, per_task=1)
    assert {t["attempts"][-1]["worker"] for t in record["tasks"]} <= {"w0", "w1"}
    alone = fronts_one_by_one(QAP, range(3, 7))
    for seed, front in alone.items():
        assert (tmp_path / f"seed-{seed}" / FRONT).read_bytes() == front


@pytest.mark.gpu
def test_each_gpu_worker_sees_its_own_gpu(tmp_path):
    if len(visible_gpus()) < 2:
        pytest.skip("needs two GPUs")
    fields = QAP | {"backend": "gpu"}
    with open_client(None, "gpu", None) as client:
        record = run(client, fields, 2 * len(visible_gpus()), tmp_path, per_task=1)
        cores = list(client.run(process_cores).values())
    assert all(len(threads) == 1 for threads in cores)
    assert not set(cores[0][0]) & set(cores[1][0])  # two workers, two shares of the cores
    attempts = [t["attempts"][-1] for t in record["tasks"]]
    assert {a["gpu"] for a in attempts} == set(visible_gpus())
    assert len({a["gpu_bus"] for a in attempts}) == len(visible_gpus())
    assert all(a["worker"] == f"gpu-{a['gpu']}" for a in attempts)
    alone = fronts_one_by_one(QAP, range(3, 3 + 2 * len(visible_gpus())))  # the CPU's: exact for the QAP
    for seed, front in alone.items():
        assert (tmp_path / f"seed-{seed}" / FRONT).read_bytes() == front


def dying_after_a_checkpoint(fields, seeds, *rest):
    """run_task, except that the first time a task is tried its worker process dies once its search has written a
    checkpoint (as a machine that goes away would)."""
    marker, folder = Path(fields["marker"]), rest[4][0]  # run_task's home: (the run's folder, the host)
    if not marker.exists():
        marker.write_text("died once")
        checkpoint = Path(folder) / f"seed-{seeds[0]}" / "checkpoint.npz"

        def die_after_checkpoint():
            while not checkpoint.exists():
                time.sleep(0.005)
            os._exit(1)

        threading.Thread(target=die_after_checkpoint, daemon=True).start()
    return run_task({k: v for k, v in fields.items() if k != "marker"}, seeds, *rest)


def test_a_task_whose_worker_dies_resumes_its_search_from_its_checkpoint(pool, tmp_path):
    fields = PLS | {"iterations": 3000, "marker": str(tmp_path / "marker")}
    record = driver(pool, fields, 1, tmp_path / "out", task=dying_after_a_checkpoint, checkpoint=0.05).run(NoStop())
    (task,) = record["tasks"]
    assert [a["status"] for a in task["attempts"]] == ["failed", "finished"]
    run_json = json.loads((tmp_path / "out" / "seed-0" / MANIFEST).read_text())
    assert run_json["status"] == "completed" and 0 < run_json["resumed"]["iterations"] < 3000
    assert (tmp_path / "out" / "seed-0" / FRONT).read_bytes() == fronts_one_by_one(PLS | {"iterations": 3000}, [0])[0]
    assert not (tmp_path / "out" / "seed-0" / "checkpoint.npz").exists()  # a completed run leaves none
