"""`mols run --checkpoint` killed (SIGKILL) or stopped (SIGTERM) in a real process, then `mols run --resume`: the
same front as the run left whole, and at most one interval lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.search.checkpoint import CHECKPOINT

RUNS = {"pls": ["020_10_01", "-a", "pls", "-b", "cpu", "--threads", "1", "-i", "10000", "-s", "2"],
        "ils3opt": ["kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--population", "8", "-i", "100000",
                    "--threads", "1", "-s", "2"],
        "elite": ["tai25a", "-p", "qap", "-a", "elite", "-b", "cpu", "--threads", "1", "-i", "1000000", "-s", "2"]}
INTERVAL = 0.2


def whole(tmp_path, run) -> tuple[bytes, dict]:
    """The run left whole: its front.csv and run.json."""
    result = CliRunner().invoke(app, ["run", *run, "-o", str(tmp_path / "whole")])
    assert result.exit_code == 0, result.output
    return (tmp_path / "whole" / "front.csv").read_bytes(), json.loads((tmp_path / "whole" / "run.json").read_text())


def started(folder, run, *flags) -> subprocess.Popen:
    """`mols run` in its own process, checkpointing into `folder`, once it has written its first checkpoint."""
    process = subprocess.Popen([sys.executable, "-m", "mols", "run", *run, "-o", str(folder), *flags],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (folder / CHECKPOINT).exists():
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "no checkpoint written"
        time.sleep(0.01)
    return process


def resumed(folder) -> dict:
    result = CliRunner().invoke(app, ["run", "--resume", str(folder)])
    assert result.exit_code == 0, result.output
    assert not (folder / CHECKPOINT).exists()  # a completed run leaves none to resume
    return json.loads((folder / "run.json").read_text())


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")
@pytest.mark.parametrize("algorithm", list(RUNS))
def test_a_run_killed_between_checkpoints_loses_at_most_one_interval_and_resumes_to_the_same_front(algorithm,
                                                                                                   tmp_path):
    folder = tmp_path / "killed"
    process = started(folder, RUNS[algorithm], "--checkpoint", str(INTERVAL))
    time.sleep(3 * INTERVAL)
    os.kill(process.pid, signal.SIGKILL)
    killed_at = time.time()
    process.wait()
    assert process.poll() is not None and not (folder / "run.json").exists()
    assert killed_at - os.path.getmtime(folder / CHECKPOINT) <= INTERVAL + 0.5  # one interval, and a step's time
    record = resumed(folder)
    assert record["resumed"]["iterations"] > 0
    front, left_whole = whole(tmp_path, RUNS[algorithm])
    assert record["status"] == "completed" and record["iterations"] == left_whole["iterations"]
    assert (folder / "front.csv").read_bytes() == front


@pytest.mark.parametrize("algorithm", list(RUNS))
def test_a_run_stopped_by_sigterm_checkpoints_where_it_stopped_and_resumes_to_the_same_front(algorithm, tmp_path):
    folder = tmp_path / "stopped"
    process = started(folder, RUNS[algorithm], "--checkpoint", str(INTERVAL))
    time.sleep(INTERVAL)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 128 + signal.SIGTERM
    stopped = json.loads((folder / "run.json").read_text())
    assert stopped["status"] == "interrupted"
    trace = pd.read_csv(folder / "trace.csv")
    record = resumed(folder)
    assert record["resumed"]["iterations"] == stopped["iterations"]  # the checkpoint is where it stopped
    going_on = pd.read_csv(folder / "trace.csv")  # the trace goes on from the checkpoint's (the end's row came after)
    pd.testing.assert_frame_equal(going_on.iloc[:len(trace) - 1], trace.iloc[:-1])
    assert going_on["seconds"].is_monotonic_increasing and going_on["iterations"].iloc[-1] == record["iterations"]
    front, left_whole = whole(tmp_path, RUNS[algorithm])
    assert record["status"] == "completed" and record["iterations"] == left_whole["iterations"]
    assert (folder / "front.csv").read_bytes() == front
