"""`mols run --resume` refuses what it cannot go on with, with one line and exit code 1, and changes nothing."""

from __future__ import annotations

import shutil

from typer.testing import CliRunner

from mols.cli import app
from mols.problems import load_problem
from mols.problems.io import bundled_instances_dir
from mols.resume import checkpoint_header
from mols.runner import RunConfig
from mols.search.checkpoint import CHECKPOINT, load_checkpoint, save_checkpoint

runner = CliRunner()
STATE = {"iterations": 5, "profile": {"elapsed": 0.5, "seconds": {}}}


def run(*args):
    return runner.invoke(app, [str(arg) for arg in args])


def refused(result, *words):
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    for word in words:
        assert word in result.output, result.output


def checkpointed(folder, instance="020_05_01", **header):
    """A checkpoint in `folder` of a tabu run on `instance` (its header as a run writes it, then `header`'s)."""
    config = RunConfig(instance=str(instance), algorithm="tabu", backend="cpu", iterations=50)
    problem = load_problem(config.problem, config.instance)
    folder.mkdir(exist_ok=True)
    save_checkpoint(folder / CHECKPOINT, checkpoint_header(config, problem, 1.0) | header, STATE)
    return folder / CHECKPOINT


def test_no_folder_and_no_checkpoint(tmp_path):
    refused(run("run", "--resume", tmp_path / "missing"), "no such results folder")
    refused(run("run", "--resume", tmp_path), "no checkpoint there")


def test_damaged_checkpoints_are_refused_and_left_as_they_are(tmp_path):
    path = checkpointed(tmp_path / "run")
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 2], b"not a checkpoint", whole.replace(b"020_05_01", b"020_05_02")):
        path.write_bytes(damaged)
        refused(run("run", "--resume", path.parent), str(path), "damaged")
        assert path.read_bytes() == damaged


def test_another_version_or_format_is_refused(tmp_path):
    refused(run("run", "--resume", checkpointed(tmp_path / "a", mols="0.0.1").parent), "written by mols 0.0.1")
    refused(run("run", "--resume", checkpointed(tmp_path / "b", format=99).parent), "another format")


def test_another_instance_is_refused_before_anything_is_written(tmp_path):
    instance = tmp_path / "020_05_01.txt"
    shutil.copy(bundled_instances_dir() / "flowshop" / "020_05_01.txt", instance)
    path = checkpointed(tmp_path / "run", instance)
    text = instance.read_text().split("\n")
    instance.write_text("\n".join(text[:-3] + [line.replace("1", "2") for line in text[-3:]]))
    before = sorted(p.name for p in path.parent.iterdir())
    refused(run("run", "--resume", path.parent), "another instance")
    assert sorted(p.name for p in path.parent.iterdir()) == before
    assert load_checkpoint(path)[1] == STATE


def test_options_come_from_the_checkpoint(tmp_path):
    folder = checkpointed(tmp_path / "run").parent
    refused(run("run", "--resume", folder, "--seed", "3"), "--seed cannot change")
    refused(run("run", "020_05_01", "--resume", folder), "give no INSTANCE")
    refused(run("run"), "give the INSTANCE")


def test_a_folder_holding_a_checkpoint_is_not_taken_by_a_new_run(tmp_path):
    folder = checkpointed(tmp_path / "run").parent
    refused(run("run", "020_05_01", "-b", "cpu", "-i", "5", "-o", folder), "holds a run", "--overwrite")
