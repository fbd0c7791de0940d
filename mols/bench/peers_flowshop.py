"""`mols bench peers` on the bi-objective flowshop: mols' PLS-1 against pymoo's NSGA-II and NSGA-III (as `mols bench
pymoo` runs them), every front's hypervolume measured against the reference point of mols' traces."""

from __future__ import annotations

import functools
from time import perf_counter

import numpy as np

from mols.bench.peers_jobs import WARM_SECONDS, WARMED, Domain, Job, MolsSearch, Settings
from mols.bench.pymoo_hv import OBJECTIVES, genetic_algorithm

INSTANCES = ("200_20_01",)
SEARCH = MolsSearch(gpu={"algorithm": "pls", "objectives": OBJECTIVES},
                    cpu={"algorithm": "pls", "objectives": OBJECTIVES})
PEERS = {"nsga2": "pymoo", "nsga3": "pymoo"}


@functools.cache
def reference(instance: str) -> np.ndarray:
    """The point mols' traces measure hypervolumes up to (search/trace.py), for the instance and OBJECTIVES."""
    from mols.problems import load_problem
    from mols.search.trace import reference_point

    return reference_point(load_problem("flowshop", instance).with_objectives(OBJECTIVES))


def share(instance: str, value: float) -> float:
    """A hypervolume as a share of the box between 0 and the reference point (the objectives are never negative)."""
    return value / float(np.prod(reference(instance)))


def ga_run(instance: str, method: str, seed: int, backend: str, budgets: tuple[float, ...]) -> dict:
    """NSGA-II or NSGA-III (mols' backend evaluating its populations) for the longest budget: the hypervolume of its
    population's non-dominated front at the last generation before each budget."""
    import moocore
    from pymoo.optimize import minimize

    from mols.pymoo import MolsProblem
    from mols.runner import run_problem

    config = SEARCH.config("flowshop", instance, seed, backend, max(budgets))
    problem = MolsProblem(run_problem(config), backend=config.backend)
    if (instance, method, backend) not in WARMED:  # its kernels compiled, untimed
        minimize(problem, genetic_algorithm(problem, method), ("time", WARM_SECONDS), seed=seed)
        WARMED.add((instance, method, backend))
    fronts = []
    start = perf_counter()
    minimize(problem, genetic_algorithm(problem, method), ("time", max(budgets)), seed=seed,
             callback=lambda algorithm: fronts.append((perf_counter() - start, algorithm.opt.get("F"))))
    last = sorted({max((g for g, (t, _) in enumerate(fronts) if t <= b), default=-1) for b in budgets} - {-1})
    ref = reference(instance)
    return {"points": [[fronts[g][0], float(moocore.hypervolume(fronts[g][1], ref=ref))] for g in last]}


def peer_jobs(instance: str, settings: Settings, peers: list[str]) -> list[Job]:
    longest = max(settings.budgets)
    return [Job("flowshop", instance, peer, seed, (ga_run, instance, peer, seed, settings.backend,
                                                   settings.budgets), device=True, expected=longest)
            for peer in peers for seed in range(settings.seeds)]


def size(instance: str) -> str:
    from mols.problems import load_problem

    problem = load_problem("flowshop", instance)
    return f"flowshop {instance}: {problem.n} jobs, objectives {', '.join(OBJECTIVES)}"


DOMAIN = Domain("flowshop", "flowshop", SEARCH, "hypervolume", PEERS, peer_jobs, share, size, higher=True, notes=(
    ("hypervolume: of each front, up to the reference point of mols' traces (the worst values of 100 random "
     "solutions, moved out by 10 %), as a share of the box between 0 and that point (higher is better)"),
    ("nsga2, nsga3: pymoo's, as `mols bench pymoo` runs them, mols' backend evaluating their populations (so they "
     "run in mols' phase, not on the CPU workers); read at each budget from their population's front at the last "
     "generation before it"),
))
