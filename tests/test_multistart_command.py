"""`mols multistart` and mols.solve_many, both through the driver: the command runs the searches, on local
processes too where Dask is not installed; its one-line errors (a bad option, a bad scheduler, one without workers,
a bad instance) and a worker's traceback kept to the log; solve_many's results, merged front and folder."""

from __future__ import annotations

import json
import time

import pandas as pd
import pytest
from typer.testing import CliRunner

import mols
from mols.cli import app
from mols.errors import MolsError
from mols.parallel.record import MULTISTART
from mols.reporting import load_run
from mols.results import FRONT
from mols.runner import RunConfig
from tests.test_multistart import LOG, QAP, failing_task, fronts_one_by_one, merged_of


def test_the_command_runs_the_searches_and_names_a_bad_option(tmp_path):
    runner = CliRunner()
    out = tmp_path / "out"
    done = runner.invoke(app, ["multistart", "-k", "2", "--workers", "2", "tai12a", "-p", "qap", "-a", "its",
                               "-i", "30", "-b", "cpu", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert json.loads((out / MULTISTART).read_text())["merged"]["rows"] >= 1
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["seed-0", "seed-1"]
    bad = runner.invoke(app, ["multistart", "tai12a", "-p", "qap", "--tenure", "x", "-o", str(tmp_path / "b")])
    assert bad.exit_code == 1 and "--tenure" in bad.output and "Traceback" not in bad.output
    batch = runner.invoke(app, ["multistart", "tai12a", "-p", "qap", "--batch", "3", "-o", str(tmp_path / "c")])
    assert batch.exit_code == 1 and "--searches" in batch.output


TINY = ["tai12a", "-p", "qap", "-a", "tabu", "-i", "3", "-b", "cpu"]


def flat(output: str) -> str:
    return " ".join(output.split())  # rich wraps long lines at spaces


@pytest.mark.parametrize("address, why", [
    ("nonsense", "not a scheduler address"), ("foo://x", "not a scheduler address"),
    ("tcp://127.0.0.1:1", "no Dask scheduler answered within 2 s"),  # nothing listens there
    (None, "the scheduler has no worker (none joined within 2 s)")])  # a scheduler of no workers, made here
def test_a_bad_scheduler_or_one_without_workers_is_one_line_within_the_timeout(address, why, tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        address, start = address or cluster.scheduler_address, time.monotonic()
        result = CliRunner().invoke(app, ["multistart", "--scheduler", address, "--connect-timeout", "2", *TINY,
                                          "-o", str(tmp_path / "out")])
        assert time.monotonic() - start < 2 + 10
    output = flat(result.output)
    assert result.exit_code == 1 and "Traceback" not in output and output.count("error:") == 1
    assert f"error: --scheduler {address}: {why}" in output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("scheduler", [[], ["--scheduler", "tcp://127.0.0.1:1"]], ids=["local", "existing"])
@pytest.mark.parametrize("content", [None, "12\n1 2 3\n"], ids=["missing", "malformed"])
def test_a_bad_instance_is_read_here_and_named_as_the_user_gave_it(content, scheduler, tmp_path):
    """Before any cluster is started or reached, with mols run's message (the reader's)."""
    path = tmp_path / "my.dat"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(app, ["multistart", *scheduler, str(path), *TINY[1:], "-o", str(tmp_path / "out")])
    alone = CliRunner().invoke(app, ["run", str(path), *TINY[1:], "-o", str(tmp_path / "run")])
    assert result.exit_code == alone.exit_code == 1
    assert "Traceback" not in result.output and "mols: starting" not in result.output
    assert str(path) in result.output.replace("\n", "") and "mols-instances" not in result.output
    assert flat(result.output) == flat(alone.output) and not (tmp_path / "out").exists()


def test_a_failing_tasks_traceback_goes_to_the_log_not_the_terminal(tmp_path, monkeypatch, capfd):
    """The worker's report and the driver's traceback in the log; a line per attempt on the terminal (fd 2 too)."""
    monkeypatch.setattr("mols.parallel.driver.run_task", failing_task)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["multistart", "-k", "2", "--seed", "3", "--workers", "1", "--per-task", "1",
                                      *TINY, "-o", str(out)])
    terminal = result.output + "".join(capfd.readouterr())
    assert result.exit_code == 1, terminal
    for then in ("trying it once more", "given up"):
        assert f"mols: task 1 (seed 4) failed: RuntimeError: a fault in seed 4's task; {then}" in flat(result.output)
    assert "Traceback" not in terminal and "Compute Failed" not in terminal
    log = (out / LOG).read_text()
    assert log.count("Compute Failed") == 2 and log.count("Traceback (most recent call last)") == 2
    assert 'raise RuntimeError("a fault in seed 4\'s task")' in log
    tasks = json.loads((out / MULTISTART).read_text())["tasks"]
    assert [t["status"] for t in tasks] == ["finished", "failed"] and len(tasks[1]["attempts"]) == 2


def test_without_dask_the_command_runs_on_local_processes_and_refuses_a_scheduler(tmp_path, monkeypatch):
    import mols.extras

    monkeypatch.setattr(mols.extras, "find_spec", lambda module: None if module in ("dask", "distributed") else 1)
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["multistart", "-k", "2", "--workers", "2", *TINY, "-o", str(out)])
    assert done.exit_code == 0, done.output
    record = json.loads((out / MULTISTART).read_text())
    assert record["mode"] == "processes" and record["workers"] == ["0", "1"]
    for seed, front in fronts_one_by_one(QAP | {"iterations": 3, "seed": 0}, [0, 1]).items():
        assert (out / f"seed-{seed}" / FRONT).read_bytes() == front
        assert load_run(out / f"seed-{seed}").trace["iterations"].iloc[-1] == 3  # each search's trace, sent back
    refused = CliRunner().invoke(app, ["multistart", "--scheduler", "tcp://127.0.0.1:1", *TINY, "-o", str(out)])
    assert refused.exit_code == 1 and "pip install 'mols[dask]'" in flat(refused.output)


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_solve_many_gives_each_searchs_result_and_their_merged_front(executor, tmp_path):
    config = RunConfig(**QAP)
    many = mols.solve_many(config, 3, executor=executor, workers=2, output=tmp_path / "out")
    assert sorted(many.results) == [3, 4, 5] and many.record["mode"] == executor
    alone = fronts_one_by_one(QAP, [3, 4, 5])
    for seed, result in many.results.items():
        assert result.status == "completed" and (many.folder / f"seed-{seed}" / FRONT).read_bytes() == alone[seed]
    pd.testing.assert_frame_equal(many.front, merged_of(alone, ["cost"]), check_dtype=False)


def test_solve_many_takes_configs_that_differ_by_their_seeds_and_names_a_bad_one():
    configs = [RunConfig(**(QAP | {"seed": seed})) for seed in (7, 2)]
    many = mols.solve_many(configs, executor="processes", workers=1)
    assert sorted(many.results) == [2, 7] and many.folder is None and len(many.front) >= 1
    with pytest.raises(MolsError, match="^config: .* differ by their seeds only"):
        mols.solve_many([configs[0], RunConfig(**(QAP | {"iterations": 5}))])
    with pytest.raises(MolsError, match="^seeds must be distinct"):
        mols.solve_many(configs[0], [1, 1])
    with pytest.raises(MolsError, match="^executor must be one of"):
        mols.solve_many(configs[0], 2, executor="threads")


def test_the_default_folder_names_the_search_that_ran(tmp_path, monkeypatch):
    """Without -a a multistart of QAP runs ITS (the problem's search), and its folder says so (it said None); it
    ends with the best cost of all the searches and its gap, as mols run does."""
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, ["multistart", "-k", "1", "--workers", "1", "tai12a", "-p", "qap", "-i", "5",
                                    "-b", "cpu"])
    assert done.exit_code == 0, done.output
    folder = tmp_path / "results" / "tai12a-multistart-its-k1-s0"
    assert load_run(folder / "seed-0").manifest["config"]["algorithm"] == "its"
    best = int(pd.read_csv(folder / "merged_front.csv")["cost"].min())
    assert f"best cost {best}, " in done.output and "above the best known 224416" in done.output
