"""`mols report`: results folders in, Markdown and CSV tables and PNG plots out, per group of runs (groups.py: the
runs of one problem, instance, objective subset and budget), each with its own reference set."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mols.errors import MolsError, reason
from mols.problems import published_front
from mols.reporting import plots
from mols.reporting.attainment import InstanceEAF, instance_eaf, is_bi_objective
from mols.reporting.convergence import Curves, Runtimes, convergence, runtimes
from mols.reporting.groups import Group, group_notes, group_runs
from mols.reporting.indicators import reference_set
from mols.reporting.ranktest import hv_rank_tests
from mols.reporting.render import (
    attainment_png,
    convergence_png,
    difference_png,
    fronts_png,
    render_markdown,
    runtimes_png,
)
from mols.reporting.runs import Run, load_runs
from mols.reporting.tables import runs_table, speedup_table, summary_table


@dataclass
class Report:
    runs: pd.DataFrame  # one row per run
    summary: pd.DataFrame  # aggregated over seeds
    speedups: pd.DataFrame
    references: dict[str, np.ndarray]  # by group label
    loaded: list[Run]
    groups: list[Group]  # in the order of their labels
    files: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # folders that could not be read
    skipped: list[str] = field(default_factory=list)  # runs left out for holding no solution
    notes: list[str] = field(default_factory=list)  # groups that could not be compared, or were kept apart
    rank_tests: pd.DataFrame = field(default_factory=pd.DataFrame)  # hypervolume, per pair of labels in a group
    eafs: dict[str, InstanceEAF] = field(default_factory=dict)  # bi-objective groups only, by group label
    curves: dict[str, Curves] = field(default_factory=dict)  # groups with traces (trace.csv), by group label
    runtimes: dict[str, Runtimes] = field(default_factory=dict)  # single-objective groups with a target and traces

    def compact(self, label: str | None = None) -> pd.DataFrame:
        """The summary's headline columns (of group `label`'s rows, or all), as the CLI prints them: the fronts'
        indicators where a group has several objectives, the best value and its gap where one."""
        summary = self.summary if label is None else self.summary[self.summary["group"] == label]
        fronts = {"hv mean": "HV", "igd_plus mean": "IGD+", "eps_add mean": "eps+"}
        one = {"best median": "best", "gap % median": "gap %"}
        several = summary["best median"].isna()
        cols = {"runs": "runs", "n_solutions median": "solutions", **(fronts if several.any() else {}),
                **({} if several.all() else one), "wall_s median": "wall s", "ms_per_iteration median": "ms/iteration"}
        return summary[["group", "algorithm", "backend", *cols]].rename(columns=cols)


def build_report(paths: list[Path]) -> Report:
    """Load every run under paths, group the runs (groups.py), and compute each run's indicators against its
    group's reference set (the non-dominated union of the group's fronts, and of its instance's published exact
    front where there is one). Unreadable folders are listed in `errors`; MolsError if no run could be read."""
    runs, errors = load_runs(paths)
    skipped = [f"results folder {run.folder}: no solutions (the run was {run.manifest['status']}); left out"
               for run in runs if len(run.F) == 0]
    runs = [run for run in runs if len(run.F)]
    if not runs:
        raise MolsError("no results to report:\n" + "\n".join(errors + skipped))
    groups = group_runs(runs)
    references = {group.label: reference_set([r.F for r in group.runs], published(group)) for group in groups}
    df = runs_table(groups, references)
    eafs = {group.label: instance_eaf(group.runs) for group in groups if is_bi_objective(group.runs)}
    curves = {group.label: c for group in groups if (c := convergence(group)) is not None}
    times = {group.label: r for group in groups if (r := runtimes(group)) is not None}
    return Report(df, summary_table(df), speedup_table(df), references, runs, groups, errors=errors,
                  skipped=skipped, notes=group_notes(groups), rank_tests=hv_rank_tests(df), eafs=eafs,
                  curves=curves, runtimes=times)


def published(group: Group) -> np.ndarray | None:
    """The published exact front of the group's instance (mols.problems.published_front), where its runs optimised
    all of the problem's objectives in its order: the front has those columns, and a subset would need its own."""
    config = group.runs[0].manifest["config"]
    return None if config.get("objectives") else published_front(group.key.problem, config["instance"])


def write_report(paths: list[Path], out: Path) -> Report:
    """build_report, then write its tables and plots into out."""
    report = build_report(paths)
    try:
        out.mkdir(parents=True, exist_ok=True)
        report.files += _write_tables(report, out)
        report.files += _write_plots(report, out)
    except OSError as err:
        raise MolsError(f"report folder {out}: {reason(err)}") from None
    return report


def _write_tables(report: Report, out: Path) -> list[Path]:
    files = [out / "runs.csv", out / "summary.csv", out / "speedup.csv", out / "hv-tests.csv", out / "report.md"]
    report.runs.to_csv(files[0], index=False)
    report.summary.to_csv(files[1], index=False)
    report.speedups.to_csv(files[2], index=False)
    report.rank_tests.to_csv(files[3], index=False)
    files[4].write_text(render_markdown(report))
    (out / "reference").mkdir(exist_ok=True)
    for group in report.groups:
        path = out / "reference" / f"{group.label}.csv"
        pd.DataFrame(report.references[group.label], columns=group.key.objectives).to_csv(path, index=False)
        files.append(path)
    return files


def _write_plots(report: Report, out: Path) -> list[Path]:
    files = []
    for group in report.groups:
        if len(group.key.objectives) > 1:  # one objective: no front to draw, the tables say it all
            files.append(plots.plot_fronts(group.label, group.runs, report.references[group.label],
                                           out / fronts_png(group.label)))
    for label, eaf in report.eafs.items():
        files.append(plots.plot_attainment(label, eaf, out / attainment_png(label)))
        files += [plots.plot_eaf_difference(label, eaf, pair, out / difference_png(label, pair))
                  for pair, rectangles in eaf.differences.items() if rectangles is not None]
    files += [plots.plot_convergence(label, curves, out / convergence_png(label))
              for label, curves in report.curves.items()]
    files += [plots.plot_runtimes(label, times, out / runtimes_png(label)) for label, times in report.runtimes.items()]
    files.append(plots.plot_profile(report.runs, out / "profile.png"))
    if (report.speedups["backend"] != "cpu x1").any():
        files.append(plots.plot_speedup(report.speedups, out / "speedup.png"))
    return files
