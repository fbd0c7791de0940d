"""Real `mols run` processes and real signals: nothing lost, nothing torn, the right exit code.

Each test starts the CLI as a child process (python -m mols run ...) and waits for the progress line
that the first iteration prints on stderr (the output is no terminal) before it signals the child.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mols.reporting import load_run

ROOT = Path(__file__).resolve().parents[1]
LONG = ["020_05_01", "-b", "cpu", "--threads", "1", "-i", "100000000"]  # stopped by a signal long before its end


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mols", "run", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})


def wait_for_search(child: subprocess.Popen, timeout: float = 120.0) -> str:
    """stderr up to the first progress line: the search is running."""
    seen, deadline = "", time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = child.stderr.readline()
        seen += line
        if "iterations, archive" in line:
            return seen
        if not line and child.poll() is not None:
            break
    child.kill()
    raise AssertionError(f"the search did not start:\n{seen}")


def finish(child: subprocess.Popen) -> tuple[int, str]:
    out, err = child.communicate(timeout=120)
    return child.returncode, out + err


def check_complete(folder: Path, status: str, signal_name: str | None = None) -> dict:
    """The folder reads back whole (run.json's count and SHA-256 of front.csv and trace.csv agree) with that status,
    its trace up to the run's end."""
    run = load_run(folder)
    assert run.manifest["status"] == status and run.manifest["signal"] == signal_name
    assert len(run.F) == run.manifest["archive_size"] > 0
    last = run.trace.iloc[-1]
    assert (last["iterations"], last["archive"]) == (run.manifest["iterations"], len(run.F))
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    return run.manifest


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_signal_writes_the_archive_so_far(tmp_path, signum, code):
    child = start(*LONG, "-o", str(tmp_path / "run"))
    wait_for_search(child)
    time.sleep(0.3)
    child.send_signal(signum)
    returncode, output = finish(child)
    assert returncode == code, output
    assert "Traceback" not in output
    manifest = check_complete(tmp_path / "run", "interrupted", signal.Signals(signum).name)
    assert 0 < manifest["iterations"] < 100000000


@pytest.mark.parametrize("gap", [0.005, 0.02, 0.03, 0.06])
def test_a_second_signal_does_not_stop_the_write(tmp_path, gap):
    child = start(*LONG, "-o", str(tmp_path / "run"))
    wait_for_search(child)
    child.send_signal(signal.SIGINT)
    time.sleep(gap)
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
    returncode, output = finish(child)
    assert returncode == 130, output
    assert "Traceback" not in output
    check_complete(tmp_path / "run", "interrupted", "SIGINT")


def test_a_signal_before_the_search_writes_nothing(tmp_path):
    folder = tmp_path / "run"
    child = start(*LONG, "-o", str(folder))
    deadline = time.monotonic() + 60
    while not (folder / ".mols.lock").exists() and time.monotonic() < deadline:  # the folder is taken first
        time.sleep(0.01)
    child.send_signal(signal.SIGTERM)  # the instance is being read or the kernels compiled
    returncode, output = finish(child)
    assert returncode == 143, output
    assert "Traceback" not in output
    if "before the search started" in output:
        assert not folder.exists()  # it made the folder, and took it away again
    else:  # the signal came once the search was on its way: what it found is written
        check_complete(folder, "interrupted", "SIGTERM")


def test_two_runs_on_one_folder(tmp_path):
    """The second run is refused at once while the first holds the folder, and the first's folder is intact."""
    folder = tmp_path / "shared"
    first = start(*LONG, "-s", "1", "-o", str(folder))
    wait_for_search(first)
    second = start("020_05_01", "-b", "cpu", "--threads", "1", "-i", "50", "-s", "2", "-o", str(folder))
    returncode, output = finish(second)
    assert returncode == 1 and "in use by another mols run" in " ".join(output.split())
    assert "Traceback" not in output
    first.send_signal(signal.SIGTERM)
    assert finish(first)[0] == 143
    manifest = check_complete(folder, "interrupted", "SIGTERM")
    assert manifest["config"]["seed"] == 1


def test_a_finished_folder_is_kept_unless_overwrite(tmp_path):
    folder = tmp_path / "run"
    args = ["020_05_01", "-b", "cpu", "--threads", "1", "-i", "20", "-o", str(folder)]
    assert finish(start(*args, "-s", "1"))[0] == 0
    before = (folder / "run.json").read_text()
    returncode, output = finish(start(*args, "-s", "2"))
    assert returncode == 1 and "holds a run already" in output and "--overwrite" in output
    assert (folder / "run.json").read_text() == before
    assert finish(start(*args, "-s", "2", "--overwrite"))[0] == 0
    assert json.loads((folder / "run.json").read_text())["config"]["seed"] == 2
    check_complete(folder, "completed")


def test_a_signal_while_the_folder_is_taken_leaves_nothing(tmp_path, monkeypatch):
    """A signal that lands while the results folder is being made and locked (the window that the test above
    can hit) ends the command with 128 + its number, and the folder it made is gone again."""
    from typer.testing import CliRunner

    from mols import results
    from mols.cli import app

    take = results.ResultsFolder._take

    def take_then_signal(self):
        take(self)
        os.kill(os.getpid(), signal.SIGTERM)  # StopSignals' setup phase: KeyboardInterrupt, here

    monkeypatch.setattr(results.ResultsFolder, "_take", take_then_signal)
    folder = tmp_path / "run"
    done = CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "10", "-o", str(folder)])
    assert done.exit_code == 143, done.output
    assert "before the search started" in done.output and not folder.exists()
