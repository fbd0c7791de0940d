"""`mols bench peers`: mols against the solvers a user would install instead, on the same instances at the same
wall-clock budgets, side by side in one run: each run's score at each budget and its time to each target."""

from __future__ import annotations

import math
from collections.abc import Callable

from mols.bench import peers_continuous, peers_flowshop, peers_qap, peers_tsp
from mols.bench.common import Spread
from mols.bench.peers_jobs import Domain, Job, Settings, missing, run_jobs

BUDGETS = (1.0, 2.0, 5.0, 10.0, 20.0)
DOMAINS: dict[str, Domain] = {"tsp": peers_tsp.DOMAIN, "continuous": peers_continuous.DOMAIN,
                              "flowshop": peers_flowshop.DOMAIN, "qap": peers_qap.DOMAIN}
EXTRA = "pip install 'mols[peers]'"


def installed(domain: Domain) -> tuple[list[str], list[str]]:
    """The domain's peers that import, and a line for each that does not."""
    found, lines = [], []
    for peer, module in domain.peers.items():
        if missing(module):
            lines.append(f"{peer}: skipped, not installed ({EXTRA})")
        else:
            found.append(peer)
    return found, lines


def run(plan: dict[str, list[str]], settings: Settings,
        on_record: Callable[[list[dict], list[str]], None] = lambda records, skipped: None
        ) -> tuple[list[dict], list[str]]:
    """Every run of the plan (domain -> its instances) under the settings: a record per job (its Job's fields, its
    points, final solution and note), and a line per peer skipped; on_record(the records so far, the lines) after
    each run ends, so that a report of them outlives a bench stopped later."""
    jobs, skipped, done = [], [], []
    for name, instances in plan.items():
        domain = DOMAINS[name]
        peers, lines = installed(domain)
        skipped += [f"{name}: {line}" for line in lines]
        for instance in instances:
            jobs += domain.jobs(instance, settings, peers)

    def on_job(job: Job, result: dict) -> None:
        done.append(record(job, result))
        on_record(done, skipped)

    results = run_jobs(jobs, settings.gpus, settings.cores, on_job)
    return [record(job, result) for job, result in zip(jobs, results)], skipped


def record(job: Job, result: dict) -> dict:
    """A run's record: its Job's fields, its points, final solution and note."""
    return {"domain": job.domain, "instance": job.instance, "contestant": job.contestant, "seed": job.seed,
            "budget": job.budget, "points": result.get("points", []), "final": result.get("final"),
            "note": result.get("note")}


def point_at(record: dict, budget: float) -> list | None:
    """The record's point at `budget`, [seconds, value]: its last by then ([]: none yet); None for a run of another
    budget (fast-tsp's)."""
    if record["budget"] is not None:
        return None if record["budget"] != budget else (record["points"][-1] if record["points"] else [])
    points = [point for point in record["points"] if point[0] <= budget]
    return points[-1] if points else []


def score_at(record: dict, budget: float) -> float | None:
    """The record's score at `budget` (NaN: no solution yet); None for a run of another budget."""
    point = point_at(record, budget)
    if point is None:
        return None
    return DOMAINS[record["domain"]].score(record["instance"], point[1]) if point else math.nan


def reach(records: list[dict], target: float) -> float:
    """The first seconds at which one of a seed's records (an anytime run, or its runs of each budget) scored at or
    below `target` (NaN: never)."""
    times = [point[0] for r in records for point in r["points"]
             if DOMAINS[r["domain"]].score(r["instance"], point[1]) <= target]
    return min(times, default=math.nan)


def by_seed(records: list[dict]) -> dict[tuple, list[dict]]:
    """The records of each (domain, instance, contestant, seed)."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault((r["domain"], r["instance"], r["contestant"], r["seed"]), []).append(r)
    return groups


def budget_rows(records: list[dict], budgets) -> list[dict]:
    """A row per run and budget: its score, and the value and seconds of the point behind it."""
    rows = []
    for r in records:
        for budget in budgets:
            point = point_at(r, budget)
            if point is not None:
                seconds, value = point or (math.nan, math.nan)
                rows.append({"domain": r["domain"], "instance": r["instance"], "contestant": r["contestant"],
                             "seed": r["seed"], "budget": budget, "score": score_at(r, budget), "value": value,
                             "seconds": seconds, "note": r["note"] or ""})
    return rows


def target_rows(records: list[dict]) -> list[dict]:
    """A row per seed's run (or runs) and target of its domain: the seconds to it (NaN: not reached)."""
    rows = []
    for (domain, instance, contestant, seed), group in by_seed(records).items():
        for target in DOMAINS[domain].targets:
            rows.append({"domain": domain, "instance": instance, "contestant": contestant, "seed": seed,
                         "target": target, "seconds": reach(group, target)})
    return rows


def summary_rows(rows: list[dict], key: str, value: str, empty: Callable[[str], float]) -> list[dict]:
    """Per domain, instance, contestant and `key` (budget or target): the spread of `value` over the seeds, NaN taken
    as empty(domain) (no tour yet: an infinite gap; no front: no hypervolume; never reached: infinite time)."""
    cells: dict[tuple, list[float]] = {}
    for row in rows:
        cells.setdefault((row["domain"], row["instance"], row["contestant"], row[key]), []).append(row[value])
    return [{"domain": d, "instance": i, "contestant": c, key: k, "runs": len(values),
             "with_value": sum(not math.isnan(v) for v in values),
             **Spread.of(empty(d) if math.isnan(v) else v for v in values).columns(value)}
            for (d, i, c, k), values in cells.items()]


def no_score(domain: str) -> float:
    return 0.0 if DOMAINS[domain].higher else math.inf


def tables(records: list[dict], budgets) -> dict[str, list[dict]]:
    """The bench's CSV tables, by file name."""
    scores, targets = budget_rows(records, budgets), target_rows(records)
    return {"peers.csv": scores, "peers-targets.csv": targets,
            "peers-summary.csv": summary_rows(scores, "budget", "score", no_score),
            "peers-targets-summary.csv": summary_rows(targets, "target", "seconds", lambda domain: math.inf)}
