"""`mols bench fsp`: its plan, resuming, an interruption, and the paper's tables from tiny runs."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.bench import fsp
from mols.bench.fsp_tables import write_tables
from mols.cli import app
from tests.bench.spreads import markdown_spreads, measured_spreads

runner = CliRunner()


def test_plan_covers_every_cell_with_one_budget_and_seed(tmp_path):
    cells = fsp.plan(tmp_path, ["20x10", "50x20"], list(fsp.ALGORITHMS), ["cpu1", "cpu"], 2, 7)
    assert len(cells) == 2 * 3 * 2 * 2 and len({c.folder for c in cells}) == len(cells)
    assert {c.config.iterations for c in cells} == {7}
    one = next(c.config for c in cells if c.folder.name == "50x20-pls-dominating-cpu1-s1")
    assert (one.instance, one.algorithm, one.variant, one.threads, one.seed) == ("050_20_01", "pls", "dominating", 1, 1)


def test_runs_resume_and_a_new_budget_reruns(tmp_path):
    cells = fsp.plan(tmp_path, ["20x10"], ["tabu"], ["cpu1", "cpu"], 1, 10)
    assert fsp.run(cells) == 2 and all(fsp.is_done(c) for c in cells)
    assert fsp.run(cells) == 0
    assert fsp.run(fsp.plan(tmp_path, ["20x10"], ["tabu"], ["cpu1"], 1, 11)) == 1


def test_a_run_recorded_before_newer_config_fields_stays_done(tmp_path):
    """Fields added to RunConfig after a run count with their defaults, resolved as now (PLS on the cpu
    backend archives on the host); a recorded value that differs still reruns the cell."""
    cells = fsp.plan(tmp_path, ["20x10"], ["pls-dominating"], ["cpu1"], 1, 5)
    fsp.run(cells)
    manifest = cells[0].folder / "run.json"
    run = json.loads(manifest.read_text())
    for field in ("archive", "tenure", "partitions"):
        del run["config"][field]
    manifest.write_text(json.dumps(run))
    assert fsp.is_done(cells[0])
    run["config"]["archive"] = "gpu"
    manifest.write_text(json.dumps(run))
    assert not fsp.is_done(cells[0])


def test_an_interruption_keeps_the_archive_and_is_redone(tmp_path):
    cells = fsp.plan(tmp_path, ["20x10"], ["pls-nondominated"], ["cpu"], 1, 50)

    def stop_at_5(cell):
        def on_iteration(done, size):
            if done == 5:
                raise KeyboardInterrupt
        return on_iteration

    with pytest.raises(KeyboardInterrupt):
        fsp.run(cells, stop_at_5)
    run = json.loads((cells[0].folder / "run.json").read_text())
    assert run["status"] == "interrupted" and run["iterations"] == 5 and run["archive_size"] > 0
    assert not fsp.is_done(cells[0]) and fsp.run(cells) == 1


def test_tables_have_times_accelerations_solutions_and_profile(tmp_path):
    cells = fsp.plan(tmp_path, ["20x10"], list(fsp.ALGORITHMS), ["cpu1", "cpu"], 2, 10)
    fsp.run(cells)
    md, report = write_tables(tmp_path, [c.folder for c in cells])
    text = md.read_text()
    for heading in ("Table 2: tabu", "Table 3: pls-dominating", "Table 4: pls-nondominated", "Table 5"):
        assert heading in text
    assert "| size | neighbors | cpu x1 s |" in text and "×" in text and "| 20x10 | 361 |" in text
    assert len(report.runs) == 12 and (tmp_path / "speedup.png").is_file()
    table = pd.read_csv(tmp_path / "fsp.csv")  # per algorithm and backend, over the two seeds
    assert len(measured_spreads(table, "wall_s")) == 6 and len(measured_spreads(table, "speedup")) == 6
    one_core = table[table["backend"] == "cpu x1"]
    assert (one_core["speedup"] == 1.0).all() and (one_core["wall_s_min"] < one_core["wall_s_max"]).all()
    assert len(markdown_spreads(text)) == 3 * 3  # each table's cpu x1 time, cpu time and its acceleration


def test_cli_quick_run_writes_the_tables(tmp_path):
    result = runner.invoke(app, ["bench", "fsp", "--sizes", "20x10", "--algorithms", "tabu", "--backends", "cpu1",
                                 "--quick", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "runs" / "20x10-tabu-cpu1-s0" / "run.json").read_text())
    assert run["config"]["iterations"] == fsp.QUICK_ITERATIONS and run["threads"] == 1
    assert "Table 2: tabu" in (tmp_path / "fsp.md").read_text()


@pytest.mark.parametrize("option, value", [("--sizes", "30x7"), ("--algorithms", "sa"), ("--backends", "tpu")])
def test_cli_names_a_bad_choice(tmp_path, option, value):
    result = runner.invoke(app, ["bench", "fsp", option, value, "-o", str(tmp_path)])
    assert result.exit_code == 1 and option in result.output and value in result.output
