"""Fig. 2 of Luong, Loukil, Melab & Talbi (2010) on this machine: tabu search with the advanced and the basic
neighborhood at equal evaluations, the best cost's mean and spread over the seeds along the evaluations."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mols.algorithms.tabu.search import AggregatedTabu
from mols.backends import BackendSpec, gpu_available, prepare
from mols.bench.common import Spread
from mols.errors import MolsError
from mols.markdown import markdown_table
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems.q3ap import load_q3ap

CHECKPOINTS = (0.25, 0.5, 1.0)  # fractions of the evaluations at which the table gives the best cost
POINTS = 20  # the curve's points: the best cost after 1/20, 2/20, ... of the evaluations


def run_backend() -> BackendSpec:
    """Where the runs go: the GPU where there is one, else all CPU cores."""
    return BackendSpec("gpu" if gpu_available() else "cpu")


def spread(values) -> float:
    """The sample standard deviation (0 for one value)."""
    return statistics.stdev(values) if len(values) > 1 else 0.0


def compare_rows(instance: str, iterations: int, runs: int, on_row: Callable[[dict], None] = lambda row: None,
                 points: int = POINTS) -> list[dict]:
    """Tabu search with each neighborhood for the same number of evaluated neighbors, seeds 0 .. runs - 1 each: a
    row per neighborhood, with its curve (row["curve"]: the best cost's mean, sd, min and max over the seeds after
    each 1/points of the evaluations) and each seed's final cost."""
    problem, spec = load_q3ap(instance), run_backend()
    evaluations = iterations * ADVANCED.n_neighbors(problem.n)
    fractions = np.arange(1, points + 1) / points
    rows = []
    for nbh in (ADVANCED, BASIC):
        ev = prepare(problem, nbh, spec)
        budget = round(evaluations / ev.n_neighbors)
        curves, seconds, tenure = [], [], 0
        for seed in range(runs):
            curve, wall, tenure = tabu_curve(problem, nbh, ev, budget, seed, np.unique([*fractions, *CHECKPOINTS]))
            curves.append(curve)
            seconds.append(wall)
        at = {f: [c[f] for c in curves] for f in curves[0]}
        finals = at[1.0]
        row = {"instance": instance, "neighborhood": nbh.name, "neighbors": ev.n_neighbors, "iterations": budget,
               "evaluations": budget * ev.n_neighbors, "tenure": tenure, "runs": runs, "backend": ev.label,
               "mean_cost": statistics.mean(finals), "sd_cost": spread(finals), "best_cost": min(finals),
               "worst_cost": max(finals), "mean_s": statistics.mean(seconds), **Spread.of(seconds).columns("seconds"),
               **{f"{what}_best_at_{round(100 * f)}pc": fn(at[f]) for f in CHECKPOINTS
                  for what, fn in (("mean", statistics.mean), ("sd", spread))},
               "final_costs": " ".join(map(str, finals)),
               "curve": [{"instance": instance, "neighborhood": nbh.name, "fraction": float(f),
                          "evaluations": round(f * budget) * ev.n_neighbors, "mean": statistics.mean(at[f]),
                          "sd": spread(at[f]), "min": min(at[f]), "max": max(at[f])} for f in fractions]}
        rows.append(row)
        on_row(row)
    return rows


def tabu_curve(problem, nbh, ev, budget: int, seed: int, fractions) -> tuple[dict[float, int], float, int]:
    """One tabu run: its best cost after each fraction of the budget (the last report at or before it: a device walk
    reports after each batch of steps; 1.0: the run's best), its wall seconds and tenure."""
    dones, bests = [], []

    def record(done: int, _archive_size: int) -> None:
        dones.append(done)
        bests.append(int(search.archive.F.min()))

    search = AggregatedTabu(problem, nbh, ev, budget, np.random.default_rng(seed), weights=(1.0,),
                            on_iteration=record)
    result = search.run()
    if result.status != "completed":
        raise MolsError(f"a benchmark run did not complete ({result.status}): {result.error}")
    last = np.maximum(np.searchsorted(dones, np.round(np.asarray(fractions) * budget), side="right") - 1, 0)
    return {float(f): bests[i] for f, i in zip(fractions, last)}, result.wall_seconds, search.tenure


def final_test(rows: list[dict]) -> str:
    """The two-sided Mann-Whitney U test of the neighborhoods' final costs over the seeds, in words."""
    from scipy.stats import mannwhitneyu

    finals = {row["neighborhood"]: [int(c) for c in str(row["final_costs"]).split()] for row in rows}
    if len(finals) < 2 or min(map(len, finals.values())) < 2:
        return "too few runs for a rank test of the final costs"
    test = mannwhitneyu(finals["advanced"], finals["basic"], alternative="two-sided")
    return f"two-sided Mann-Whitney U test of the final costs, advanced against basic: U = {test.statistic:g}, " \
           f"p = {test.pvalue:.3g}"


def render_section(rows: list[dict]) -> str:
    """The comparison's Markdown section: the table, the rank test and the figure."""
    text = ("\n## The two neighborhoods at equal evaluations (the paper's Fig. 2)\n\nTabu search, tenure m / 4, from a "
            "random start (seed s for both neighborhoods); the basic neighborhood gets as many evaluated neighbors as "
            "the advanced one. Best cost, mean (sd) over the seeds, at a quarter, half and all of the evaluations; "
            "the curve: `q3ap_fig2.csv` and `q3ap_fig2.png` (mean, band of one sd, min and max).\n\n")
    text += markdown_table([{
        "instance": r["instance"], "neighborhood": r["neighborhood"], "neighbors": f"{r['neighbors']:,}",
        "iterations": f"{r['iterations']:,}", "evaluations": f"{r['evaluations']:,}", "tenure": r["tenure"],
        "runs": r["runs"], "mean (sd) / best / worst cost":
            f"{r['mean_cost']:.1f} ({r['sd_cost']:.1f}) / {r['best_cost']} / {r['worst_cost']}",
        **{f"at {round(100 * f)} %": f"{r[f'mean_best_at_{round(100 * f)}pc']:.1f} "
                                     f"({r[f'sd_best_at_{round(100 * f)}pc']:.1f})" for f in CHECKPOINTS},
        "s": Spread.read(r, "seconds").text(".2f")} for r in rows]) + "\n"
    return text + f"\n{final_test(rows)}.\n\n![Fig. 2](q3ap_fig2.png)\n"


def plot_curves(rows: list[dict], path: Path) -> Path:
    """The best cost's mean along the evaluations for each neighborhood, a band of one sd and its min and max."""
    import matplotlib

    matplotlib.use("Agg")  # files only
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for row, color in zip(rows, ("tab:red", "tab:blue")):
        x = np.array([p["evaluations"] for p in row["curve"]]) / 1e6
        mean, sd = (np.array([p[key] for p in row["curve"]]) for key in ("mean", "sd"))
        ax.plot(x, mean, color=color, marker="o", ms=3, label=f"{row['neighborhood']} ({row['runs']} seeds)")
        ax.fill_between(x, mean - sd, mean + sd, color=color, alpha=0.2)
        for key in ("min", "max"):
            ax.plot(x, [p[key] for p in row["curve"]], color=color, lw=0.7, ls=":")
    ax.set_xlabel("evaluated neighbors (millions)")
    ax.set_ylabel("best cost")
    ax.set_title(f"{rows[0]['instance']}: tabu search at equal evaluations")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
