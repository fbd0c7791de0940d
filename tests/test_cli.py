"""The `mols` command through Typer's CliRunner: outputs, files, and exit code 1 on bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import mols
import mols.runner
from mols.cli import app
from mols.runner import build_search
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and mols.__version__ in result.output


def test_evaluate_identity_prints_objectives():
    result = run("evaluate", "020_05_01")
    assert result.exit_code == 0
    assert "1448" in result.output and "5290" in result.output


def test_evaluate_neighborhood_writes_csv(tmp_path):
    out = tmp_path / "F.csv"
    result = run("evaluate", "020_05_01", "-n", "insertion", "-b", "cpu", "--perm", ",".join(map(str, range(19, -1, -1))),
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out)
    assert list(frame.columns) == ["id", "i", "j", "makespan", "total_tardiness", "n_tardy"]
    assert len(frame) == 19 * 19
    pb = mols.load_problem("flowshop", "020_05_01")
    nbh = mols.get_neighborhood("insertion")
    x = list(range(19, -1, -1))
    row = frame.iloc[100]
    assert tuple(row[["makespan", "total_tardiness", "n_tardy"]]) == tuple(pb.evaluate(nbh.apply(x, 100)))


@pytest.mark.parametrize("args, message", [
    (["evaluate", "no_such_instance"], "no such instance"),
    (["evaluate", "020_05_01", "--perm", "0 1 2"], "--solution"),
    (["evaluate", "020_05_01", "--solution", "x y"], "--solution"),
    (["evaluate", "020_05_01", "-n", "bogus"], "bogus"),
    (["evaluate", "020_05_01", "-b", "tpu"], "tpu"),
    (["evaluate"], "Missing argument"),
    (["evaluate", "020_05_01", "--no-such-option"], "No such option"),
    (["bench", "neighborhood", "--sizes", "7x7"], "--sizes"),
])
def test_bad_input_exits_1_without_traceback(args, message):
    result = run(*args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_malformed_instance_names_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1\n0\n0\n10\n5\n1\n7\n-3\n")  # a negative time on line 9
    result = run("evaluate", str(bad))
    assert result.exit_code == 1
    assert "bad.txt:9" in result.output.replace("\n", "")


def test_bench_neighborhood_writes_report(tmp_path):
    result = run("bench", "neighborhood", "--sizes", "20x10", "-n", "swap,3exchange", "--repeats", "1",
                 "--gpu-repeats", "2", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "neighborhood.csv")
    assert list(table["size"]) == ["20x10"] * 2 and (table["cpu_1core_nbr_per_s"] > 0).all()
    assert list(table["neighborhood"]) == ["swap", "3exchange"] and list(table["neighbors"]) == [190, 2280]
    for key in ("cpu_1core_s", "cpu_all_cores_nbr_per_s", "cpu_parallel_speedup"):
        assert len(measured_spreads(table, key)) == 2
    text = (tmp_path / "neighborhood.md").read_text()
    assert "CPU 1 core" in text and len(markdown_spreads(text)) >= 3


def test_run_writes_front_and_manifest(tmp_path):
    out = tmp_path / "run"
    result = run("run", "020_05_01", "-b", "cpu", "-i", "30", "--output", str(out))  # spelt as every command spells it
    assert result.exit_code == 0, result.output
    front = pd.read_csv(out / "front.csv")
    assert list(front.columns) == ["makespan", "total_tardiness", "n_tardy", "solution"] and len(front) > 0
    pb = mols.load_problem("flowshop", "020_05_01")
    X = [[int(v) for v in text.split()] for text in front["solution"]]
    assert pb.evaluate(X).tolist() == front[["makespan", "total_tardiness", "n_tardy"]].values.tolist()
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["status"] == "completed" and manifest["iterations"] == 30
    assert manifest["archive_size"] == len(front)
    assert "completed" in result.output and "run.json" in "".join(result.output.split())  # a long path may wrap


def test_run_tabu_with_weights(tmp_path):
    result = run("run", "020_05_01", "-b", "cpu", "-a", "tabu", "--weights", "1,0,0", "-i", "20", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["algorithm"] == "tabu" and manifest["config"]["weights"] == [1.0, 0.0, 0.0]
    assert manifest["iterations"] == 20 and manifest["starts"] == 1


def test_run_to_a_target_records_when_it_was_reached(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("run", "tai12a", "-p", "qap", "-b", "cpu", "-a", "hc", "-i", "500", "--target", "250000")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "results" / "tai12a-qap-hc-swap-i500-goal250000-cpu-s0"
    manifest = json.loads((folder / "run.json").read_text())
    target = manifest["target"]
    assert target["value"] == 250000 and target["reached"] and target["iteration"] == manifest["iterations"] < 500
    assert pd.read_csv(folder / "front.csv")["cost"].min() <= 250000
    assert f"target 250000 reached after {target['iteration']} iterations" in result.output


def test_run_default_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("run", "020_05_01", "-b", "cpu", "-i", "5", "-s", "4")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "results" / "020_05_01-pls-nondominated-insertion-i5-cpu-s4" / "front.csv").is_file()


def test_default_folders_differ_with_the_configuration(tmp_path, monkeypatch):
    """The README's two tabu examples, and runs that differ only in budget or threads, get folders of their own."""
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--weights", "0.6,0.3,0.1", "--tenure", "50"], ["-i", "21"], ["--threads", "1"]):
        result = run("run", "020_05_01", "-b", "cpu", "-a", "tabu", "-i", "20", *extra)
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "results").iterdir() if not p.name.startswith("."))  # not the locks
    assert names == ["020_05_01-tabu-insertion-i20-cpu-s0", "020_05_01-tabu-insertion-i20-cpu1-s0",
                     "020_05_01-tabu-insertion-i20-w0.6_0.3_0.1-t50-cpu-s0", "020_05_01-tabu-insertion-i21-cpu-s0"]


@pytest.mark.parametrize("args, message", [
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--weights", "1,2"], "--weights"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--weights", "a,b,c"], "--weights"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--weights", "0,0,0"], "--weights"),
    (["run", "no_such_instance", "-b", "cpu"], "no such instance"),
    (["run", "020_05_01", "-b", "cpu", "-i", "0"], "--iterations"),
    (["run", "020_05_01", "-b", "cpu", "-a", "sa"], "sa"),
    (["run", "020_05_01", "-b", "cpu", "--variant", "both"], "both"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--tenure", "-1"], "--tenure"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--target", "3"], "--target: the flowshop problem has 3"),
    (["run", "020_05_01", "-b", "cpu", "--tenure", "3", "--run-length", "4"],
     "--algorithm pls does not take --tenure (only tabu or its), --run-length (only its)"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "--partitions", "4", "--weights", "1,1,1"],
     "--partitions makes a lattice of weight vectors; --weights gives one: give either"),
    (["run", "020_05_01", "-b", "cpu", "--block", "64"], "--block and --tune set the gpu backend's launches"),
    (["run", "020_05_01", "-b", "cpu", "-a", "tabu", "-i", "12", "--partitions", "20"],
     "--partitions 20 gives 231 weight vectors, more than the 12 iterations"),
])
def test_run_bad_input_exits_1_without_traceback(tmp_path, args, message):
    result = run(*args, "-o", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("options", [
    {"algorithm": "tabu", "weights": (0.5, 0.25, 0.25), "tenure": 4, "target": (1.0, 2.0, 3.0), "time": 2.5},
    {"variant": "dominating", "restarts": 0, "threads": 2, "seed": 5, "objectives": "makespan,tardiness"},
    {"algorithm": "its", "strength": 3, "run_length": 9, "evaluations": 10**6},
])
def test_cli_arguments_make_the_same_configuration(options):
    from mols.cli.multistart import run_parameters
    from mols.cli.options import config_fields
    from mols.runner.config import cli_arguments

    config = mols.RunConfig("020_05_01", backend="cpu", **options)
    assert mols.RunConfig(**config_fields(run_parameters(cli_arguments(config)))) == config


def test_run_help_shows_the_options_in_panels():
    result = run("run", "--help")
    assert result.exit_code == 0
    for panel in ("Problem", "Search", "Budget", "Output", "Backend and GPU", "ILS-3opt"):
        assert f"─ {panel} ─" in result.output
    for flag in ("--tenure", "--run-length", "--strategy", "--no-tune", "--batch", "--overwrite", "-i", "-a", "-s"):
        assert flag in result.output


def test_run_results_folder_that_is_a_file(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("")
    result = run("run", "020_05_01", "-b", "cpu", "-i", "3", "-o", str(taken))
    assert result.exit_code == 1 and "taken" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("where, message", [
    ("/proc/mols-results", "cannot be made"),
    ("{tmp}/file/run", "cannot be made"),
    ("{tmp}/file", "a file of that name exists"),
])
def test_a_bad_results_folder_is_refused_before_the_search(tmp_path, monkeypatch, where, message):
    """Before the instance is read: build_search is never called."""
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(mols.runner, "build_search", lambda *a: pytest.fail("the search was built"))
    result = run("run", "020_05_01", "-b", "cpu", "-i", "3", "-o", where.format(tmp=tmp_path))
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output


def test_a_failed_setup_takes_away_the_folder_it_made(tmp_path):
    result = run("run", "no_such_instance", "-b", "cpu", "-o", str(tmp_path / "new" / "run"))
    assert result.exit_code == 1 and "no such instance" in result.output
    assert not (tmp_path / "new" / "run").exists()


def test_run_same_seed_same_front(tmp_path):
    fronts = []
    for name in ("a", "b"):
        result = run("run", "020_05_01", "-b", "cpu", "-i", "25", "-s", "11", "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        fronts.append((tmp_path / name / "front.csv").read_text())
    assert fronts[0] == fronts[1]


def _stopping(exc):
    """build_search whose run stops at iteration 3 with exc."""

    def build(config, on_iteration=None):
        def stop(done, size):
            if on_iteration is not None:
                on_iteration(done, size)
            if done == 3:
                raise exc

        return build_search(config, stop)

    return build


def test_run_interrupted_keeps_the_archive_and_exits_130(tmp_path, monkeypatch):
    monkeypatch.setattr(mols.runner, "build_search", _stopping(KeyboardInterrupt()))
    result = run("run", "020_05_01", "-b", "cpu", "-i", "30", "-o", str(tmp_path))
    assert result.exit_code == 130, result.output
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["iterations"] == 3
    assert len(pd.read_csv(tmp_path / "front.csv")) == manifest["archive_size"] > 0


def test_run_failed_keeps_the_archive_and_exits_1(tmp_path, monkeypatch):
    monkeypatch.setattr(mols.runner, "build_search", _stopping(RuntimeError("kernel launch failed")))
    result = run("run", "020_05_01", "-b", "cpu", "-i", "30", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert "the run failed" in result.output and "kernel launch failed" in result.output
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["status"] == "failed" and "RuntimeError: kernel launch failed" in manifest["error"]
    assert len(pd.read_csv(tmp_path / "front.csv")) == manifest["archive_size"] > 0


def test_run_negative_seed_exits_1_naming_seed(tmp_path):
    result = run("run", "020_05_01", "-b", "cpu", "-i", "3", "-s", "-1", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)  # not an uncaught exception
    assert "--seed" in result.output


TSP = "NAME : small\nTYPE : TSP\nDIMENSION : {n}\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n{rows}EOF\n"


def write_flowshop(path, n: int, m: int = 2):
    """A Liefooghe-format flowshop file of n jobs."""
    rows = "".join(f"{j}\n{10 * j}\n{' '.join(['5'] * m)}\n" for j in range(n))
    path.write_text(f"{n}\n{m}\n0\n{rows}")
    return path


@pytest.mark.parametrize("make, args, message", [
    (lambda d: (d / "big.tsp").write_text(TSP.format(n=10**10, rows="1 0 0\n2 3 4\n3 5 1\n")),
     ["evaluate", "{d}/big.tsp", "-p", "tsp"], "3 coordinates, but DIMENSION is 10000000000"),
    (lambda d: (d / "perm.bin").write_bytes(bytes(range(256))),
     ["evaluate", "020_05_01", "--perm-file", "{d}/perm.bin"], "not a text file"),
    (lambda d: None, ["evaluate", "020_05_01", "-n", "swap", "-b", "cpu", "-o", "/nonexistent/dir/F.csv"],
     "--output /nonexistent/dir/F.csv: Cannot save file into a non-existent directory"),
    (lambda d: None, ["run", "random:abc:1", "-p", "tsp", "-o", "{d}/out"], "random:abc:1: no such instance"),
    (lambda d: (d / "big.dat").write_text("4\n" + f"{2**30 - 1} " * 32),
     ["evaluate", "{d}/big.dat", "-p", "qap"], "beyond the 64-bit integers"),
    (lambda d: (d / "junk.txt").write_text("x" * 4096 + "\n"), ["evaluate", "{d}/junk.txt"], "(4096 characters)"),
])
def test_input_errors_exit_1_with_a_short_message(tmp_path, make, args, message):
    make(tmp_path)
    result = run(*[arg.format(d=tmp_path) for arg in args])
    output = " ".join(result.output.split())  # rich wraps long lines
    assert result.exit_code == 1, result.output
    assert message in output and "Traceback" not in output and "None" not in output
    assert len(output) < 400


def test_a_tsp_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.tsp"
    path.write_text("\ufeff" + TSP.format(n=3, rows="1 0 0\n2 3 4\n3 0 4\n"))
    result = run("evaluate", str(path), "-p", "tsp")
    assert result.exit_code == 0, result.output
    assert "12" in result.output  # 5 + 4 + 3


@pytest.mark.parametrize("make, args", [
    (lambda d: "random:100000:1", ["-p", "tsp", "-a", "tabu", "-i", "1"]),  # tabu memory of 5e9 neighbors
    (lambda d: str(write_flowshop(d / "jobs.txt", 50_000)), ["-i", "1"]),  # F of 2.5e9 neighbors
])
def test_sizes_that_do_not_fit_are_refused_with_the_estimate(tmp_path, monkeypatch, make, args):
    monkeypatch.setattr("mols.memory.available_bytes", lambda: 1 << 30)  # as on a machine with 1 GiB free
    result = run("run", make(tmp_path), "-b", "cpu", *args, "-o", str(tmp_path / "out"))
    output = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert "GiB of memory, more than the 1.0 GiB available" in output and "Traceback" not in output
    assert not (tmp_path / "out").exists()


def test_benchmarks_write_under_bench_out_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("bench", "neighborhood", "--sizes", "20x10", "-n", "swap", "--repeats", "1", "--gpu-repeats", "2")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "bench-out").iterdir()) == ["neighborhood.csv", "neighborhood.md"]
    assert not (tmp_path / "reports").exists()
