"""`mols report` and the report it builds: files from two tiny synthetic results folders, and a
corrupt folder named in a clear error while the others are still reported."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.archive import Archive
from mols.cli import app
from mols.errors import MolsError
from mols.reporting import build_report, load_run, write_report
from mols.results import RunContext, write_results
from mols.runner import RunConfig
from mols.search.base import SearchResult

OBJ = ("cost", "delay")
runner = CliRunner()


def synthetic_run(folder, F, backend="cpu", threads=1, seconds=2.0, seed=0, algorithm="pls", objectives=OBJ):
    """A results folder written the way `mols run` writes one, from a hand-made front."""
    archive = Archive(len(objectives), 3)
    archive.add(np.array(F), np.tile(np.arange(3), (len(F), 1)))
    profile = {"evaluation": {"seconds": seconds / 2, "percent": 50.0},
               "archiving": {"seconds": seconds / 4, "percent": 25.0},
               "ls process": {"seconds": seconds / 4, "percent": 25.0}}
    result = SearchResult(archive, 10, 6, seconds, profile, starts=1)
    config = RunConfig(instance="toy.txt", backend=backend, iterations=10, seed=seed, algorithm=algorithm,
                       threads=threads if backend == "cpu" else None, archive=backend if algorithm == "pls" else None)
    write_results(folder, config, result, RunContext("toy", objectives, backend, threads if backend == "cpu" else None))
    return folder


@pytest.fixture
def two_runs(tmp_path):
    return [synthetic_run(tmp_path / "a", [[0, 4], [2, 2], [4, 0]], seconds=2.0),
            synthetic_run(tmp_path / "b", [[1, 4], [4, 1]], backend="gpu", seconds=0.5)]


def test_report_files_and_indicators(tmp_path, two_runs):
    out = tmp_path / "report"
    report = write_report(two_runs, out)
    names = {p.relative_to(out).as_posix() for p in report.files}
    assert names == {"runs.csv", "summary.csv", "speedup.csv", "hv-tests.csv", "report.md", "reference/toy.csv",
                     "fronts-toy.png", "profile.png", "speedup.png", "eaf-toy.png",
                     "eafdiff-toy-pls-nondominated_cpu_x1-vs-pls-nondominated_gpu.png"}
    assert all((out / name).stat().st_size > 0 for name in names)
    runs = pd.read_csv(out / "runs.csv").set_index("backend")
    assert runs.loc["cpu x1", "hv"] == pytest.approx(0.46) and runs.loc["cpu x1", "igd"] == 0
    assert runs.loc["gpu", "hv"] == pytest.approx(0.16) and runs.loc["gpu", "n_solutions"] == 2
    assert pd.read_csv(out / "reference" / "toy.csv").columns.tolist() == list(OBJ)
    speedup = pd.read_csv(out / "speedup.csv").set_index("backend")
    assert speedup.loc["gpu", "speedup"] == pytest.approx(4.0)  # 2.0 s on 1 core against 0.5 s
    assert "## toy\n" in (markdown := (out / "report.md").read_text()) and "| pls-nondominated | gpu |" in markdown


def test_summary_aggregates_over_seeds(tmp_path):
    folders = [synthetic_run(tmp_path / f"s{seed}", [[seed, 4], [4, seed]], seed=seed, seconds=1.0 + seed)
               for seed in range(3)]
    summary = build_report(folders).summary.iloc[0]
    assert summary["runs"] == 3
    assert summary["wall_s median"] == pytest.approx(2.0) and summary["wall_s mean"] == pytest.approx(2.0)
    assert summary["wall_s std"] == pytest.approx(1.0)


def test_a_parent_folder_is_searched_for_runs(tmp_path, two_runs):
    assert len(build_report([tmp_path]).runs) == 2


def older(folder, front: str):
    """The folder as mols wrote it before run.json recorded front.csv's SHA-256, with this front.csv."""
    manifest = json.loads((folder / "run.json").read_text())
    del manifest["front"]
    (folder / "run.json").write_text(json.dumps(manifest))
    (folder / "front.csv").write_text(front)


@pytest.mark.parametrize("spoil, message", [
    (lambda f: (f / "run.json").write_text("{not json"), "not valid JSON"),
    (lambda f: (f / "front.csv").unlink(), "front.csv is missing"),
    (lambda f: older(f, "cost,solution\n1,0 1 2\n2,0 1 2\n3,0 1 2\n"), "lacks the objective column(s) delay"),
    (lambda f: older(f, "cost,delay,solution\n1,x,0 1 2\n2,2,0 1 2\n3,3,0 1 2\n"), "non-numeric"),
    (lambda f: (f / "run.json").write_text(json.dumps({"config": {}})), "lacks algorithm"),
    (lambda f: older(f, "cost,delay,solution\n0,4,0 1 2\n2,2,0 1 2\n"), "has 2 rows, but run.json says the archive held 3"),
    (lambda f: older(f, "cost,delay,solution\n0,4,0 1 2\n2,2,0 1 2\n4,0,0 1\n"), "solutions of different lengths"),
    (lambda f: (f / "front.csv").write_bytes((f / "front.csv").read_bytes()[:-3]), "not the one run.json recorded"),
    (lambda f: (f / "front.csv").write_text("cost,delay,solution\n0,4,0 1 2\n2,2,0 1 2\n4,1,0 1 2\n"),
     "not the one run.json recorded"),
])
def test_corrupt_folder_is_named(tmp_path, spoil, message):
    folder = synthetic_run(tmp_path / "bad", [[0, 4], [2, 2], [4, 0]])
    spoil(folder)
    with pytest.raises(MolsError, match="bad") as err:
        load_run(folder)
    assert message in str(err.value)


def test_cli_reports_the_good_folders_and_names_the_corrupt_one(tmp_path, two_runs):
    bad = synthetic_run(tmp_path / "corrupt", [[1, 1]])
    (bad / "run.json").write_text("{")
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", *map(str, two_runs), str(bad), str(tmp_path / "missing"), "-o", str(out)])
    output = " ".join(result.output.split())  # rich wraps long lines
    assert result.exit_code == 1
    assert "corrupt" in output and "missing: no such folder" in output and "Traceback" not in output
    assert len(pd.read_csv(out / "runs.csv")) == 2
    assert "corrupt" in (out / "report.md").read_text()


def test_cli_with_nothing_readable_exits_1(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "no run.json in it" in " ".join(result.output.split())


def test_a_folder_given_three_times_is_one_run(tmp_path, two_runs):
    report = build_report([two_runs[0], two_runs[0], tmp_path / "a" / ".." / "a", two_runs[1]])
    assert len(report.runs) == 2 and not report.errors


def test_a_run_with_no_solution_is_left_out_cleanly(tmp_path, two_runs):
    """What mols writes after an early Ctrl-C: a complete folder of 0 solutions."""
    empty = tmp_path / "empty"
    config = RunConfig(instance="toy.txt", backend="cpu", iterations=10, threads=1)
    write_results(empty, config, SearchResult(Archive(2, 3), 0, 6, 0.0, two_runs_profile(), status="interrupted"),
                  RunContext("toy", OBJ, "cpu", 1))
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", *map(str, two_runs), str(empty), "-o", str(out)])
    output = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "empty: no solutions (the run was interrupted); left out" in output and "Traceback" not in output
    assert len(pd.read_csv(out / "runs.csv")) == 2
    with pytest.raises(MolsError, match="no results to report"):
        build_report([empty])


def test_an_incomplete_folder_is_named(tmp_path, two_runs):
    """front.csv without run.json: a run cut short while writing, or one being written now."""
    (two_runs[1] / "run.json").unlink()
    report = build_report([tmp_path])
    assert len(report.runs) == 1
    assert any("b: incomplete" in e for e in report.errors)


def two_runs_profile():
    return {part: {"seconds": 0.0, "percent": 0.0} for part in ("evaluation", "archiving", "ls process")}


def seeds(tmp_path, algorithm, count, shift, objectives=OBJ):
    """`count` runs of one algorithm over seeds, their fronts further from the origin by `shift`."""
    fronts = [[[seed + shift, 4 + shift, 1], [4 + shift, seed + shift, 2]] for seed in range(count)]
    return [synthetic_run(tmp_path / f"{algorithm}-{objectives[-1]}-s{seed}", [f[:len(objectives)] for f in front],
                          seed=seed, algorithm=algorithm, objectives=objectives) for seed, front in enumerate(fronts)]


def test_bi_objective_report_has_attainment_plots_and_rank_tests(tmp_path):
    folders = seeds(tmp_path, "pls", 5, shift=0) + seeds(tmp_path, "tabu", 5, shift=3)
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    pair = "pls-nondominated_cpu_x1-vs-tabu_cpu_x1"
    assert (out / "eaf-toy.png").stat().st_size > 0 and (out / f"eafdiff-toy-{pair}.png").stat().st_size > 0
    markdown = (out / "report.md").read_text()
    assert "## Hypervolume rank tests over seeds" in markdown and "Mann-Whitney U" in markdown
    # pls's hypervolumes 0.01 to 0.21; tabu's fronts lie beyond the hypervolume's reference point.
    assert "| pls-nondominated · cpu x1 | tabu · cpu x1 | 5 | 5 | 0.11 | 0 | 1 |" in markdown
    tests = pd.read_csv(out / "hv-tests.csv")
    assert len(folders) == 10 and len(tests) == 1
    assert tests.loc[0, "p"] < 0.01 and tests.loc[0, "better"] == "pls-nondominated · cpu x1"
    assert f"| {tests.loc[0, 'p']:.4g} | pls-nondominated · cpu x1 |" in markdown
    assert "](eaf-toy.png)" in markdown and f"](eafdiff-toy-{pair}.png)" in markdown


def test_unequal_numbers_of_runs_get_surfaces_but_no_difference(tmp_path):
    seeds(tmp_path, "pls", 3, shift=0) + seeds(tmp_path, "tabu", 2, shift=1)
    report = write_report([tmp_path], tmp_path / "report")
    names = {p.name for p in report.files}
    assert "eaf-toy.png" in names and not any(name.startswith("eafdiff") for name in names)
    assert "- pls-nondominated · cpu x1 against tabu · cpu x1: no EAF difference (3 runs against 2)" in (
        tmp_path / "report" / "report.md").read_text()
    assert report.eafs["toy"].runs == {"pls-nondominated · cpu x1": 3, "tabu · cpu x1": 2}


def test_three_objective_runs_have_no_attainment_section(tmp_path):
    three = (*OBJ, "risk")
    seeds(tmp_path, "pls", 3, shift=0, objectives=three) + seeds(tmp_path, "tabu", 3, shift=3, objectives=three)
    report = write_report([tmp_path], tmp_path / "report")
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert not report.eafs and "Attainment surfaces" not in markdown
    assert not any(p.name.startswith("eaf") for p in report.files)
    assert "## Hypervolume rank tests over seeds" in markdown and len(report.rank_tests) == 1


def test_the_objectives_in_run_json_select_the_front_columns(tmp_path):
    """A run that optimised two of its problem's three objectives: front.csv has all three columns,
    run.json's `objectives` names the two, and the report treats the run as bi-objective on them."""
    folders = seeds(tmp_path, "pls", 2, shift=0, objectives=(*OBJ, "risk"))
    for folder in folders:
        manifest = json.loads((folder / "run.json").read_text())
        (folder / "run.json").write_text(json.dumps(manifest | {"objectives": ["cost", "risk"]}))
    report = build_report(folders)
    eaf = report.eafs["toy"]
    assert eaf.objectives == ("cost", "risk")
    # (cost, risk): seed 0 (0, 1) and (4, 2), seed 1 (1, 1) and (4, 2).
    surfaces = eaf.surfaces["pls-nondominated · cpu x1"]
    np.testing.assert_array_equal(surfaces["best"], [[0, 1]])
    np.testing.assert_array_equal(surfaces["worst"], [[1, 1]])


def test_runs_of_one_objective_are_reported_without_a_front_plot(tmp_path):
    """A QAP or TSP tabu run has one objective: its report has the tables, and no front to draw."""
    runs = [synthetic_run(tmp_path / f"s{seed}", [[100 - seed]], seed=seed, algorithm="tabu", objectives=("cost",))
            for seed in range(2)]
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", *map(str, runs), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.md").exists() and not list(out.glob("fronts-*.png"))


def test_one_objective_runs_report_their_best_and_its_gap(tmp_path, two_runs):
    """Runs of QAP (one objective, a best-known cost) show the best cost over seeds and its gap in % to the best
    known, not a hypervolume; beside a two-objective group, each group's section keeps its own columns."""
    from mols.problems import gap_percent, known_best

    folders = []
    for seed in range(3):
        folders.append(tmp_path / f"its{seed}")
        done = runner.invoke(app, ["run", "tai12a", "-p", "qap", "-b", "cpu", "-i", "30", "-s", str(seed),
                                   "-o", str(folders[-1])])
        assert done.exit_code == 0, done.output
    bests = [float(pd.read_csv(folder / "front.csv")["cost"].min()) for folder in folders]
    alone = build_report(folders).compact()
    assert "HV" not in alone and alone["best"].tolist() == [float(np.median(bests))]
    assert alone["gap %"].iloc[0] == pytest.approx(gap_percent(np.median(bests), known_best("qap", "tai12a")))
    mixed = write_report([*folders, *two_runs], tmp_path / "out")
    assert {"HV", "best"} <= set(mixed.compact().columns)
    text = (tmp_path / "out" / "report.md").read_text()
    assert f"| {int(np.median(bests))} |" in text and text.count("| best | gap % |") == 1
