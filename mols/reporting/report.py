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
from mols.reporting.indicators import HV_POINT, bounds, reference_set
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
    names = sorted({run.instance for run in runs})
    references = {name: reference_set([r.F for r in runs if r.instance == name], published(runs, name)) for name in names}
    df = runs_table(runs, references)
    return Report(df, summary_table(df), speedup_table(df), references, runs, errors=errors, skipped=skipped)


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
    files = [out / "runs.csv", out / "summary.csv", out / "speedup.csv", out / "report.md"]
    report.runs.to_csv(files[0], index=False)
    report.summary.to_csv(files[1], index=False)
    report.speedups.to_csv(files[2], index=False)
    files[3].write_text(render_markdown(report))
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
        files.append(plots.plot_fronts(group, ref, out / f"fronts-{_slug(name)}.png"))
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
    if report.errors or report.skipped:
        parts += ["## Folders left out\n", "\n".join(f"- {e}" for e in report.errors + report.skipped) + "\n"]
    return "\n".join(parts)


def _vector(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{x:g}" for x in v) + ")"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)
