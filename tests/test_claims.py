"""Nothing lost, nothing mixed, with real processes: several runs racing for one new folder, --overwrite killed,
and a signal at any moment of a run's first seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mols.reporting import load_run
from tests.test_processes import LONG, ROOT, check_complete, finish, start, wait_for_search


def mols_run(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mols", "run", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "400"})


def test_runs_racing_for_one_new_folder_leave_exactly_one_run_and_losers_exit_1(tmp_path):
    """The issue's repro: 4 runs started together into one new folder, 10 rounds. One run's files each round (run.json
    and front.csv of the same run), every other run refused with exit code 1 before it searched."""
    for round_ in range(10):
        folder = tmp_path / f"race{round_}"
        children = {seed: mols_run("020_10_01", "-b", "cpu", "--threads", "1", "-i", "100", "-s", str(seed),
                                   "-o", str(folder)) for seed in range(1, 5)}
        outcomes = {seed: finish(child) for seed, child in children.items()}
        winners = [seed for seed, (code, _) in outcomes.items() if code == 0]
        assert len(winners) == 1, outcomes
        for seed, (code, output) in outcomes.items():
            if seed not in winners:
                assert code == 1 and "Traceback" not in output, output
                assert "in use by another mols run" in output or "holds a run already" in output, output
        run = load_run(folder)  # front.csv agrees with run.json's count and SHA-256
        assert run.manifest["config"]["seed"] == winners[0] and run.manifest["status"] == "completed"


def test_overwrite_killed_keeps_the_old_run_whole(tmp_path):
    folder = tmp_path / "run"
    code, output = finish(mols_run("020_05_01", "-b", "cpu", "-i", "20", "-o", str(folder)))
    assert code == 0, output
    before = {name: (folder / name).read_bytes() for name in ("front.csv", "run.json")}
    child = start(*LONG, "-o", str(folder), "--overwrite")
    wait_for_search(child)
    child.kill()
    child.communicate(timeout=60)
    assert {name: (folder / name).read_bytes() for name in ("front.csv", "run.json")} == before
    check_complete(folder, "completed")


@pytest.mark.parametrize("batch", range(3))
def test_a_signal_at_any_moment_of_the_first_seconds_gives_one_line_and_never_an_empty_folder(tmp_path, batch):
    """SIGINT at 0.1 s steps through the first 3 s (split in three tests): exit code 130 without a traceback, or
    0 where the run ended first; the folder either absent or a whole run with at least one iteration."""
    for step in range(batch * 10 + 1, batch * 10 + 11):
        folder = tmp_path / f"at{step}"
        child = mols_run("020_10_01", "-b", "cpu", "--threads", "1", "-i", "400", "-o", str(folder))
        time.sleep(step / 10)
        child.send_signal(signal.SIGINT)
        code, output = finish(child)
        assert code in (0, 130) and "Traceback" not in output, (step, output)
        assert code == 0 or "by SIGINT" in output, (step, output)  # the line that says why it ended
        if folder.exists():
            run = json.loads((folder / "run.json").read_text())
            assert run["iterations"] >= 1 and load_run(folder).manifest == run, (step, output)


def test_runs_batches_and_multistarts_never_write_into_each_others_folders(tmp_path):
    from typer.testing import CliRunner

    from mols.cli import app

    def run(*args):
        return CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "3", *args])

    assert run("-o", str(tmp_path / "batch"), "--batch", "2").exit_code == 0
    refused = run("-o", str(tmp_path / "batch"), "--overwrite")
    assert refused.exit_code == 1 and "holds a batch" in " ".join(refused.output.split())
    assert run("-o", str(tmp_path / "one")).exit_code == 0
    refused = run("-o", str(tmp_path / "one"), "--batch", "2", "--overwrite")
    assert refused.exit_code == 1 and "holds a run" in " ".join(refused.output.split())
    (tmp_path / "ms").mkdir()
    (tmp_path / "ms" / "multistart.json").write_text("{}")
    refused = run("-o", str(tmp_path / "ms"))
    assert refused.exit_code == 1 and "holds a multistart" in " ".join(refused.output.split())


@pytest.mark.parametrize("args, message", [
    (["-o", ""], "--output"),
    (["-a", "tabu", "--weights", "1,1,1", "--partitions", "5"], "--partitions"),
])
def test_meaningless_options_are_refused(tmp_path, monkeypatch, args, message):
    from typer.testing import CliRunner

    from mols.cli import app

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "3", *args])
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # nothing written, not even into the current directory


def test_ils3opt_says_where_it_rounds_its_iterations(tmp_path):
    from typer.testing import CliRunner

    from mols.cli import app

    result = CliRunner().invoke(app, ["run", "kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "-i", "10",
                                      "--population", "8", "-o", str(tmp_path / "ils")])
    assert result.exit_code == 0, result.output
    assert "-i 10 ran as 16 ILS iterations" in " ".join(result.output.split())
    details = json.loads((tmp_path / "ils" / "run.json").read_text())["details"]
    assert details["iterations_requested"] == 10 and details["iterations_per_solution"] * 8 == 16
