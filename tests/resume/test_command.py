"""`mols run --checkpoint` killed (SIGKILL) or stopped (SIGTERM) in a real process, then `mols run --resume`: the
same front as the run left whole, and at most one interval lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.search.checkpoint import CHECKPOINT, load_checkpoint

RUN = ["020_10_01", "-a", "pls", "-b", "cpu", "--threads", "1", "-i", "4000", "-s", "2"]
INTERVAL = 0.2


def whole_front(tmp_path) -> bytes:
    result = CliRunner().invoke(app, ["run", *RUN, "-o", str(tmp_path / "whole")])
    assert result.exit_code == 0, result.output
    return (tmp_path / "whole" / "front.csv").read_bytes()


def started(folder, *flags) -> subprocess.Popen:
    """`mols run` in its own process, checkpointing into `folder`, once it has written its first checkpoint."""
    process = subprocess.Popen([sys.executable, "-m", "mols", "run", *RUN, "-o", str(folder), *flags],
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
def test_a_run_killed_between_checkpoints_loses_at_most_one_interval_and_resumes_to_the_same_front(tmp_path):
    folder = tmp_path / "killed"
    process = started(folder, "--checkpoint", str(INTERVAL))
    time.sleep(3 * INTERVAL)
    os.kill(process.pid, signal.SIGKILL)
    killed_at = time.time()
    process.wait()
    assert process.poll() is not None and not (folder / "run.json").exists()
    assert killed_at - os.path.getmtime(folder / CHECKPOINT) <= INTERVAL + 0.5  # one interval, and a step's time
    _, state = load_checkpoint(folder / CHECKPOINT)
    record = resumed(folder)
    assert record["resumed"]["iterations"] == state["iterations"] > 0
    assert record["status"] == "completed" and record["iterations"] == 4000
    assert (folder / "front.csv").read_bytes() == whole_front(tmp_path)


def test_a_run_stopped_by_sigterm_checkpoints_where_it_stopped_and_resumes_to_the_same_front(tmp_path):
    folder = tmp_path / "stopped"
    process = started(folder, "--checkpoint", str(INTERVAL))
    time.sleep(INTERVAL)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 128 + signal.SIGTERM
    stopped = json.loads((folder / "run.json").read_text())
    assert stopped["status"] == "interrupted"
    _, state = load_checkpoint(folder / CHECKPOINT)
    assert state["iterations"] == stopped["iterations"]  # the checkpoint is where the run stopped: nothing lost
    record = resumed(folder)
    assert record["status"] == "completed" and record["iterations"] == 4000
    assert (folder / "front.csv").read_bytes() == whole_front(tmp_path)
