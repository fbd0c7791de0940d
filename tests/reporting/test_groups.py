"""Reports group runs by what they are (problem, instance content, objectives, budget): real results folders from
`mols run` on the CPU with tiny budgets never share a reference set or a row across groups; a file is no folder."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import mols
from mols.cli import app
from mols.reporting import build_report, group_runs, load_run

runner = CliRunner()
FLOWSHOP = Path(mols.__file__).parent / "instances" / "flowshop" / "020_05_01.txt"


def run(out: Path, *args: str) -> Path:
    """A results folder written by `mols run ... -b cpu` (3 iterations unless args say otherwise)."""
    args = args if "-i" in args else (*args, "-i", "3")
    result = runner.invoke(app, ["run", *args, "-b", "cpu", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def report(tmp_path: Path, *folders: Path):
    """`mols report` over folders: its exit code, its output on one line (rich wraps), and the report folder."""
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", *map(str, folders), "-o", str(out)])
    return result.exit_code, " ".join(result.output.split()), out


def references(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "reference").iterdir())


def test_qap_and_q3ap_runs_of_one_name_are_two_groups(tmp_path):
    folders = [run(tmp_path / "runs" / p, "nug12", "-p", p) for p in ("qap", "q3ap")]
    code, output, out = report(tmp_path, tmp_path / "runs")
    assert code == 0 and "Traceback" not in output
    assert references(out) == ["nug12-q3ap.csv", "nug12-qap.csv"]
    summary = pd.read_csv(out / "summary.csv")
    assert summary["group"].tolist() == ["nug12-q3ap", "nug12-qap"] and (summary["runs"] == 1).all()
    runs = pd.read_csv(out / "runs.csv").set_index("folder")
    assert runs.loc[str(folders[0]), "group"] == "nug12-qap" and runs.loc[str(folders[1]), "problem"] == "q3ap"
    assert {"fronts-nug12-qap.png", "fronts-nug12-q3ap.png"}.isdisjoint(p.name for p in out.iterdir())  # one objective
    markdown = (out / "report.md").read_text()
    assert "## nug12-qap\n" in markdown and "## nug12-q3ap\n" in markdown


def fl_ok(folder: Path, change: bool) -> Path:
    """The bundled 020_05_01 as folder/fl_ok.txt, with its first processing time one larger if `change`."""
    lines = FLOWSHOP.read_text().splitlines()
    if change:
        first, *rest = lines[5].split()
        lines[5] = " ".join([str(int(first) + 1), *rest])
    folder.mkdir(parents=True)
    (folder / "fl_ok.txt").write_text("\n".join(lines) + "\n")
    return folder / "fl_ok.txt"


def test_two_files_of_one_name_are_two_groups(tmp_path):
    folders = [run(tmp_path / "runs" / f"{k}-s{s}", str(fl_ok(tmp_path / f"file{k}" / str(s), k == "b")), "-s", str(s))
               for k in "ab" for s in (0, 1)]
    digests = [json.loads((f / "run.json").read_text())["instance_sha256"] for f in folders]
    assert digests[0] == digests[1] != digests[2] == digests[3]  # the same content under two paths is one instance
    code, output, out = report(tmp_path, tmp_path / "runs")
    assert code == 0, output
    labels = [f"fl_ok-{digests[0][:8]}", f"fl_ok-{digests[2][:8]}"]
    assert references(out) == sorted(f"{label}.csv" for label in labels)
    assert {f"fronts-{label}.png" for label in labels} <= {p.name for p in out.iterdir()}
    summary = pd.read_csv(out / "summary.csv").set_index("group")
    assert sorted(summary.index) == sorted(labels) and (summary["runs"] == 2).all()
    assert (summary["instance"] == "fl_ok").all()


def test_an_older_run_without_a_hash_is_kept_apart_from_a_hashed_one(tmp_path):
    """run.json written before instance_sha256: told apart by name only, so never pooled with a hashed run."""
    hashed = run(tmp_path / "runs" / "new", str(FLOWSHOP))
    older = [run(tmp_path / "runs" / f"old-s{s}", str(FLOWSHOP), "-s", str(s)) for s in (0, 1)]
    for folder in older:
        manifest = json.loads((folder / "run.json").read_text())
        del manifest["instance_sha256"]
        (folder / "run.json").write_text(json.dumps(manifest))
    built = build_report([tmp_path / "runs"])
    digest = json.loads((hashed / "run.json").read_text())["instance_sha256"]
    assert [(g.label, len(g.runs)) for g in built.groups] == [(f"020_05_01-{digest[:8]}", 1), ("020_05_01-nohash", 2)]
    assert any(note.startswith("group 020_05_01-nohash: its run.json files predate instance_sha256")
               for note in built.notes)


def test_different_budgets_are_two_groups_and_speedups_stay_within_one(tmp_path):
    runs = tmp_path / "runs"
    one_core = run(runs / "i3-1core", str(FLOWSHOP), "--threads", "1")
    two_cores = run(runs / "i3-2cores", str(FLOWSHOP), "--threads", "2")
    run(runs / "i4-2cores", str(FLOWSHOP), "--threads", "2", "-i", "4")
    code, output, out = report(tmp_path, runs)
    assert code == 0, output
    assert references(out) == ["020_05_01-i3.csv", "020_05_01-i4.csv"]
    summary = pd.read_csv(out / "summary.csv")
    assert summary[["group", "backend", "runs"]].values.tolist() == [
        ["020_05_01-i3", "cpu x1", 1], ["020_05_01-i3", "cpu x2", 1], ["020_05_01-i4", "cpu x2", 1]]
    speedups = pd.read_csv(out / "speedup.csv")  # the i4 run has no 1-core run of its budget to compare with
    assert speedups[["group", "backend"]].values.tolist() == [["020_05_01-i3", "cpu x1"], ["020_05_01-i3", "cpu x2"]]
    seconds = {f: load_run(f).manifest["wall_seconds"] for f in (one_core, two_cores)}
    assert speedups.loc[1, "speedup"] == pytest.approx(seconds[one_core] / seconds[two_cores])


def test_objective_subsets_are_groups_not_a_traceback(tmp_path):
    runs = tmp_path / "runs"
    for name, objectives in {"one": ["makespan"], "two": ["makespan,tardiness"], "all": []}.items():
        run(runs / name, str(FLOWSHOP), *(["--objectives", *objectives] if objectives else []))
    code, output, out = report(tmp_path, runs)
    assert code == 0 and "Traceback" not in output and "3 run(s) in 3 group(s)" in output
    columns = {name: pd.read_csv(out / "reference" / name).columns.tolist() for name in references(out)}
    assert columns == {"020_05_01-obj-makespan.csv": ["makespan"],
                       "020_05_01-obj-makespan+total_tardiness.csv": ["makespan", "total_tardiness"],
                       "020_05_01-obj-makespan+total_tardiness+n_tardy.csv": ["makespan", "total_tardiness", "n_tardy"]}
    assert (out / "eaf-020_05_01-obj-makespan+total_tardiness.png").is_file()  # the bi-objective group only
    assert len(list(out.glob("eaf-*.png"))) == 1


def test_the_published_front_joins_only_the_group_of_all_objectives_in_order(tmp_path):
    """mQAP's KC10 .PO front has the problem's columns: a run of cost_2,cost_1 is measured against its own."""
    from mols.problems.qap import read_pareto_set, resolve_qap

    runs = tmp_path / "runs"
    run(runs / "all", "KC10-2fl-1uni", "-p", "mqap")
    reversed_ = run(runs / "reversed", "KC10-2fl-1uni", "-p", "mqap", "--objectives", "cost_2,cost_1")
    built = build_report([runs])
    _, published = read_pareto_set(resolve_qap("KC10-2fl-1uni", "mqap").with_suffix(".PO"), 10, 2)
    ordered, swapped = (built.references[f"KC10-2fl-1uni-obj-{o}"] for o in ("cost_1+cost_2", "cost_2+cost_1"))
    assert set(map(tuple, ordered)) == set(map(tuple, published))
    assert set(map(tuple, swapped)) == set(map(tuple, load_run(reversed_).F))  # the run's front alone


def test_groups_that_cannot_be_compared_are_named(tmp_path):
    runs = tmp_path / "runs"
    for seed in (0, 1):  # two algorithms over two seeds: compared
        run(runs / f"pls-s{seed}", str(FLOWSHOP), "-s", str(seed))
        run(runs / f"hc-s{seed}", str(FLOWSHOP), "-a", "hc", "-s", str(seed))
    alone = run(runs / "i4", str(FLOWSHOP), "-i", "4")  # one run of another budget
    seeds = [run(runs / f"two-s{seed}", str(FLOWSHOP), "-i", "5", "-s", str(seed)) for seed in (0, 1)]
    code, output, out = report(tmp_path, runs)
    assert code == 0, output
    one = f"note: group 020_05_01-i4: one run ({alone}), nothing to compare it with; other runs of 020_05_01:"
    alike = f"note: group 020_05_01-i5: 2 runs of {load_run(seeds[0]).label} alone: no rank test or EAF difference"
    flat = "".join(output.split())  # the console wraps long paths
    assert "".join(one.split()) in flat and "".join(alike.split()) in flat and "020_05_01-i3:" not in output
    markdown = (out / "report.md").read_text()
    assert "## Groups not compared, or kept apart" in markdown
    assert f"- group 020_05_01-i4: one run ({alone})" in markdown
    tests = pd.read_csv(out / "hv-tests.csv")
    assert tests["group"].tolist() == ["020_05_01-i3"] and len(seeds) == 2


@pytest.mark.parametrize("given, message", [
    (lambda d: d / "front.csv", "front.csv is a file, not a results folder; give its folder, {d}"),
    (lambda d: d / "run.json", "run.json is a file, not a results folder; give its folder, {d}"),
    (lambda d: FLOWSHOP, "020_05_01.txt is a file, not a results folder"),
    (lambda d: d / "missing", "missing: no such folder"),
    (lambda d: d.parent / "empty", "empty: no run.json in it or under it"),
])
def test_report_of_what_is_no_results_folder_exits_1(tmp_path, given, message):
    folder = run(tmp_path / "runs" / "a", str(FLOWSHOP))
    (tmp_path / "runs" / "empty").mkdir()
    code, output, _ = report(tmp_path, given(folder))
    assert code == 1 and "Traceback" not in output
    assert message.format(d=folder) in output


def fake_run(instance: str, sha: str | None, problem: str = "flowshop"):
    """A Run as load_run returns one, for the labels alone."""
    from mols.reporting import Run

    manifest = {"instance": instance, "instance_sha256": sha, "objectives": ["cost"], "algorithm": "tabu",
                "backend": "cpu x1", "config": {"problem": problem, "iterations": 10, "seed": 0}}
    return Run(Path(instance), manifest, None)


def test_labels_stay_unique_where_names_differ_only_in_replaced_characters_or_case():
    labels = [g.label for g in group_runs([fake_run("a b", None), fake_run("a_b", None), fake_run("a b", None),
                                          fake_run("Nug", "1" * 64), fake_run("nug", "2" * 64)])]
    assert labels == ["Nug-11111111", "a_b-1", "a_b-2", "nug-22222222"]
