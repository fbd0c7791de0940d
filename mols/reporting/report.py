"""`mols report`: results folders in, Markdown and CSV tables and PNG plots out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mols.errors import MolsError, reason
from mols.problems import published_front
from mols.reporting import plots
from mols.reporting.attainment import InstanceEAF, instance_eaf, is_bi_objective
from mols.reporting.indicators import HV_POINT, bounds, reference_set
from mols.reporting.ranktest import ALPHA, hv_rank_tests
from mols.reporting.runs import Run, load_runs
from mols.reporting.tables import PARTS, frame_markdown, runs_table, speedup_table, summary_table


@dataclass
class Report:
    runs: pd.DataFrame  # one row per run
    summary: pd.DataFrame  # aggregated over seeds
    speedups: pd.DataFrame
    references: dict[str, np.ndarray]
    loaded: list[Run]
    files: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # folders that could not be read
    skipped: list[str] = field(default_factory=list)  # runs left out for holding no solution
    rank_tests: pd.DataFrame = field(default_factory=pd.DataFrame)  # hypervolume, per pair of groups
    eafs: dict[str, InstanceEAF] = field(default_factory=dict)  # bi-objective instances only

    def of_instance(self, name: str) -> list[Run]:
        return [run for run in self.loaded if run.instance == name]

    def compact(self) -> pd.DataFrame:
        """The summary's headline columns, as the CLI prints them."""
        cols = {"runs": "runs", "n_solutions median": "solutions", "hv mean": "HV", "igd_plus mean": "IGD+",
                "eps_add mean": "eps+", "wall_s median": "wall s", "ms_per_iteration median": "ms/iteration"}
        return self.summary[["instance", "algorithm", "backend", *cols]].rename(columns=cols)


def build_report(paths: list[Path]) -> Report:
    """Load every run under paths and compute its indicators against its instance's reference set
    (the non-dominated union of all the runs of that instance, and of its published exact front
    where there is one). Unreadable folders are listed in
    `errors`; MolsError if no run at all could be read."""
    runs, errors = load_runs(paths)
    skipped = [f"results folder {run.folder}: no solutions (the run was {run.manifest['status']}); left out"
               for run in runs if len(run.F) == 0]
    runs = [run for run in runs if len(run.F)]
    if not runs:
        raise MolsError("no results to report:\n" + "\n".join(errors + skipped))
    of_instance = {name: [run for run in runs if run.instance == name] for name in sorted({run.instance for run in runs})}
    references = {name: reference_set([r.F for r in group], published(runs, name)) for name, group in of_instance.items()}
    df = runs_table(runs, references)
    eafs = {name: instance_eaf(group) for name, group in of_instance.items() if is_bi_objective(group)}
    return Report(df, summary_table(df), speedup_table(df), references, runs, errors=errors, skipped=skipped,
                  rank_tests=hv_rank_tests(df), eafs=eafs)


def published(runs: list[Run], name: str):
    """The published exact front of instance `name`, where its problem has one (mols.problems.published_front)."""
    config = next(run for run in runs if run.instance == name).manifest["config"]
    return published_front(config.get("problem", "flowshop"), config["instance"])


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
    for name, ref in report.references.items():
        path = out / "reference" / f"{_slug(name)}.csv"
        path.parent.mkdir(exist_ok=True)
        pd.DataFrame(ref, columns=report.of_instance(name)[0].objectives).to_csv(path, index=False)
        files.append(path)
    return files


def _write_plots(report: Report, out: Path) -> list[Path]:
    files = []
    for name, ref in report.references.items():
        group = report.of_instance(name)
        if len(group[0].objectives) > 1:  # one objective: no front to draw, the tables say it all
            files.append(plots.plot_fronts(group, ref, out / f"fronts-{_slug(name)}.png"))
    for name, eaf in report.eafs.items():
        files.append(plots.plot_attainment(name, eaf, out / attainment_png(name)))
        files += [plots.plot_eaf_difference(name, eaf, pair, out / difference_png(name, pair))
                  for pair, rectangles in eaf.differences.items() if rectangles is not None]
    files.append(plots.plot_profile(report.runs, out / "profile.png"))
    if (report.speedups["backend"] != "cpu x1").any():
        files.append(plots.plot_speedup(report.speedups, out / "speedup.png"))
    return files


def render_markdown(report: Report) -> str:
    refs = [{"instance": name, "points": str(len(ref)), "ideal": _vector(bounds(ref)[0]),
             "nadir": _vector(bounds(ref)[1])} for name, ref in report.references.items()]
    profile = report.summary[["instance", "algorithm", "backend", *[f"{p} % median" for p in PARTS]]]
    parts = [
        "# Report\n",
        ("Made by `mols report`. Indicators are computed in each instance's normalised space: the "
        "reference set's ideal point maps to 0 and its nadir point to 1 on every objective. The reference "
        "set of an instance is the non-dominated union of the fronts of all its runs below, and of its "
        "published exact front where there is one (the KC10 mQAP instances' .PO files). "
        f"HV is the hypervolume up to ({HV_POINT}, ..., {HV_POINT}), higher is better; IGD, IGD+, GD, GD+ "
        "and the additive epsilon (eps+) are distances to the reference set, lower is better. "
        "Values are the mean over seeds; times are medians.\n"),
        "## Summary\n", frame_markdown(report.compact()) + "\n",
        "## Reference sets\n", frame_markdown(pd.DataFrame(refs)) + "\n",
        "## Time profile (% of wall time, median over seeds)\n", frame_markdown(profile) + "\n",
    ]
    if not report.speedups.empty:
        parts += ["## Speed-up over 1 CPU core (same budget and seed)\n", frame_markdown(report.speedups) + "\n"]
    if not report.rank_tests.empty:
        parts += ["## Hypervolume rank tests over seeds\n", RANK_TESTS + "\n",
                  frame_markdown(report.rank_tests) + "\n"]
    if report.eafs:
        parts += ["## Attainment surfaces (bi-objective instances)\n", ATTAINMENT + "\n",
                  *[eaf_markdown(name, eaf) for name, eaf in report.eafs.items()]]
    if report.errors or report.skipped:
        parts += ["## Folders left out\n", "\n".join(f"- {e}" for e in report.errors + report.skipped) + "\n"]
    return "\n".join(parts)


RANK_TESTS = (
    "For each instance and each pair of algorithm and backend A and B: the two-sided Mann-Whitney U test on "
    "the hypervolumes of their runs (one per seed). It is unpaired, not Wilcoxon's signed-rank test, "
    "because a seed does not pair runs of two algorithms up: each draws its own start from it. A12 is the "
    "probability that a run of A has a higher hypervolume than a run of B (0.5: no difference); `better` "
    f"names the side with the higher hypervolumes where p < {ALPHA} (per pair, not corrected for the "
    "number of pairs; with 3 runs a side, p cannot go below 0.1).")
ATTAINMENT = (
    "Over the k runs (seeds) of an algorithm and backend, the t-th attainment surface bounds the points "
    "that at least t of the k fronts weakly dominate: the best surface is t = 1, the median t = ceil(k/2) "
    "and the worst t = k (moocore's EAF). An EAF difference shades where the runs of one side attain points "
    "more often than those of the other, by the difference in the fraction of runs; it is drawn for pairs "
    "with as many runs on each side (moocore's eafdiff compares equal numbers).")


def attainment_png(instance: str) -> str:
    return f"eaf-{_slug(instance)}.png"


def difference_png(instance: str, pair: tuple[str, str]) -> str:
    return f"eafdiff-{_slug(instance)}-{_slug(pair[0])}-vs-{_slug(pair[1])}.png"


def eaf_markdown(instance: str, eaf: InstanceEAF) -> str:
    """The instance's attainment plots, and each pair's EAF difference or why it is not drawn."""
    lines = [f"### {instance}\n", f"![attainment surfaces of {instance}]({attainment_png(instance)})\n"]
    for (a, b), rectangles in eaf.differences.items():
        lines.append(f"![EAF difference: {a} against {b}]({difference_png(instance, (a, b))})\n"
                     if rectangles is not None else
                     f"- {a} against {b}: no EAF difference ({eaf.runs[a]} runs against {eaf.runs[b]})\n")
    return "\n".join(lines)


def _vector(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:g}" for x in v) + ")"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)
