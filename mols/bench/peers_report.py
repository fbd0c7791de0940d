"""`mols bench peers`' report: per domain and instance, each contestant's score per budget and its time to each target,
with the machine, the versions and how each contestant ran (peers.md, beside the CSV tables)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from mols.bench.common import Spread, write_tables
from mols.bench.peers import DOMAINS, tables
from mols.bench.peers_jobs import Settings
from mols.markdown import markdown_list, markdown_table

DISTRIBUTIONS = ("fast-tsp", "elkai", "cma", "scipy", "pymoo")
MEASURED = (
    "Made by `mols bench peers`. mols and the solvers a user would install instead run on the same instances at the "
    "same wall-clock budgets, in one run. mols runs once per seed for the longest budget through the library (a "
    "RunConfig) and is read at each budget from its anytime trace (trace.csv: a row at the end of a step, about "
    "every 12 % of the time so far, so its value at a budget may be a step old and its time to a target late by up "
    "to a step or 12 %); its seconds are those of the search, compilation excluded (an "
    "untimed run compiles first). The peers record their best so far as they go, except where a note says "
    "otherwise. A cell is the median over the runs (seeds 0, 1, ...) and in brackets their range; a run with no "
    "solution yet counts as an infinite gap (no front: hypervolume 0). A time to a target reads reached/runs: the "
    "median (range) of the seconds, a run that never reached it counting as infinite.")


def versions() -> str:
    found = []
    for name in DISTRIBUTIONS:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)


def settings_lines(settings: Settings, skipped: list[str]) -> dict[str, str]:
    where = (f"one job per GPU at a time on {settings.gpus} GPUs, each in a process of its own"
             if settings.gpus > 1 else "one job after another in this process")
    return {"peers' versions": versions(), "budgets": ", ".join(f"{b:g} s" for b in settings.budgets),
            "seeds": str(settings.seeds), "mols' backend": f"{settings.backend}; mols' runs (and pymoo's, which "
            f"mols' backend evaluates): {where}",
            "CPU peers": f"after mols' runs, never beside them: one single-threaded job per core, on {settings.cores} "
            "worker processes pinned to a core each" + (f"; fast-tsp on {settings.fast_tsp_threads} threads, one run "
                                                        "at a time, after them" if settings.fast_tsp_threads > 1 else ""),
            "LKH-3 timeout": f"{settings.lkh_timeout:g} s", **({"skipped": "; ".join(skipped)} if skipped else {})}


def score_table(summary: list[dict], domain: str, instance: str, budgets) -> list[dict]:
    rows = {}
    for r in summary:
        if r["domain"] == domain and r["instance"] == instance:
            row = rows.setdefault(r["contestant"], {"contestant": r["contestant"], "runs": str(r["runs"]),
                                                    **{f"{b:g} s": "" for b in budgets}})
            row[f"{r['budget']:g} s"] = cell(r, Spread.read(r, "score").text(".4g"))
    return list(rows.values())


def target_table(summary: list[dict], domain: str, instance: str) -> list[dict]:
    rows = {}
    for r in summary:
        if r["domain"] == domain and r["instance"] == instance:
            row = rows.setdefault(r["contestant"], {"contestant": r["contestant"]})
            spread = Spread.read(r, "seconds")
            label = "optimum" if r["target"] == 0 else f"{r['target']:g} %"
            row[label] = f"{r['with_value']}/{r['runs']}" + (f": {spread.text('.3g')}" if r["with_value"] else "")
    return list(rows.values())


def cell(row: dict, text: str) -> str:
    """A score's cell: its spread, and how many runs had no solution yet (counted infinite, or 0 hypervolume)."""
    if not row["with_value"]:
        return "none yet"
    lacking = row["runs"] - row["with_value"]
    return text + (f", {lacking} without a solution yet" if lacking else "")


def domain_section(name: str, instances: list[str], csv: dict[str, list[dict]], settings: Settings) -> list[str]:
    domain = DOMAINS[name]
    fields = domain.search.gpu if settings.backend == "gpu" else domain.search.cpu
    runs = ", ".join(f"{key}={value}" for key, value in fields.items())
    measure = "hypervolume share (higher is better)" if domain.higher else "gap in % (lower is better)"
    lines = [f"## {name}", "", markdown_list({"mols runs": f"-p {domain.problem} with {runs} (backend "
                                                           f"{settings.backend})",
                                              **{f"note {i + 1}": note for i, note in enumerate(domain.notes)}}), ""]
    for instance in instances:
        lines += [f"### {domain.size(instance)}", "", f"Score at each budget: {measure}.", "",
                  markdown_table(score_table(csv["peers-summary.csv"], name, instance, settings.budgets) or
                                 [{"contestant": "(no runs)"}]), ""]
        if domain.targets:
            lines += ["Time to each target (seconds): reached/runs: median (range).", "",
                      markdown_table(target_table(csv["peers-targets-summary.csv"], name, instance) or
                                     [{"contestant": "(no runs)"}]), ""]
    return lines


def write_report(records: list[dict], plan: dict[str, list[str]], settings: Settings, skipped: list[str],
                 env: dict[str, str], folder: Path) -> Path:
    """OUTPUT/peers.md and its CSV tables (peers.csv: every run's score at each budget; peers-targets.csv: every
    run's time to each target; and their summaries); the Markdown file's path."""
    csv = tables(records, settings.budgets)
    notes = [f"- {r['domain']} {r['instance']} {r['contestant']} seed {r['seed']}: {r['note']}"
             for r in records if r["note"]]
    lines = ["# mols against its peers at equal wall-clock budgets", "", MEASURED, "",
             markdown_list({**env, **settings_lines(settings, skipped)}), ""]
    for name, instances in plan.items():
        lines += domain_section(name, instances, csv, settings)
    if notes:
        lines += ["## Notes on runs", "", *notes, ""]
    return write_tables(folder, csv, ("peers.md", "\n".join(lines)))
