from __future__ import annotations

from typer.testing import CliRunner

from mols.cli import app


def test_bench_startup_times_help_import_and_a_short_run_in_fresh_processes(tmp_path):
    result = CliRunner().invoke(app, ["bench", "startup", "--backends", "cpu", "--repeats", "2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "startup.md").read_text()
    for command in ("mols --help", "import mols", "mols run 020_10_01 -a tabu -i 10 -b cpu"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {command} |"))
        median, spread, runs = (cell.strip() for cell in row.split("|")[2:5])
        low, high = map(float, spread.split("-"))
        assert 0 < low <= float(median) <= high and runs == "2"
    assert "| numba |" in text or "| numpy |" in text  # the largest imports of the run


def test_bench_startup_refuses_an_unknown_backend(tmp_path):
    result = CliRunner().invoke(app, ["bench", "startup", "--backends", "tpu", "-o", str(tmp_path)])
    assert result.exit_code == 1 and "--backends" in result.output
