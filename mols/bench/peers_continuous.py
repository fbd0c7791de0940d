"""`mols bench peers` on a continuous function, the Weierstrass function: mols against CMA-ES with IPOP restarts (cma)
and scipy's dual annealing, all through the problem's NumPy evaluation, each recording its best value as it goes."""

from __future__ import annotations

import functools
import math

import numpy as np

from mols.bench.peers_jobs import Domain, Job, MolsSearch, Recorder, Settings
from mols.problems import gap_percent

DIMENSIONS = (10, 100)
TARGETS = (5.0, 2.0, 1.0)  # % of |the known minimum| above it
SEARCH = MolsSearch(gpu={"algorithm": "es"}, cpu={"algorithm": "es"})  # the evolution strategy, its adaptive radius
PEERS = {"cma": "cma", "scipy": "scipy"}
SIGMA0 = 0.5  # CMA-ES's first step size: a quarter of the box [-1, 1]


class Expired(Exception):
    """The budget ran out inside a peer's call: it stops there."""


@functools.cache
def weierstrass(instance: str):
    from mols.problems import load_problem

    return load_problem("weierstrass", instance)


def gap(instance: str, value: float) -> float:
    return gap_percent(value, weierstrass(instance).instance.known_minimum)


def cma_run(instance: str, seed: int, seconds: float) -> dict:
    """CMA-ES with IPOP restarts (the population doubled at each), populations evaluated at once, until `seconds`."""
    import cma

    problem = weierstrass(instance)
    rng, record, restart = np.random.default_rng(seed), Recorder(seconds), 0
    base = 4 + int(3 * math.log(problem.n))
    while not record.expired():
        es = cma.CMAEvolutionStrategy(rng.uniform(-1, 1, problem.n), SIGMA0, {
            "bounds": [-1, 1], "popsize": base * 2**restart, "seed": seed * 1000 + restart + 1, "verbose": -9,
            "verb_log": 0, "verb_disp": 0})
        while not es.stop() and not record.expired():
            X = np.clip(np.asarray(es.ask()), -1.0, 1.0)
            f = problem.evaluate(X)[:, 0]
            best = int(np.argmin(f))
            record.offer(f[best], X[best])
            es.tell(list(X), f.tolist())
        restart += 1
    return record.result()


def annealing_run(instance: str, seed: int, seconds: float) -> dict:
    """scipy's dual annealing, started again (the next seed) where it ends before `seconds`, stopped there."""
    from scipy.optimize import dual_annealing

    problem = weierstrass(instance)
    record, restart = Recorder(seconds), 0

    def f(x: np.ndarray) -> float:
        if record.expired():
            raise Expired
        value = float(problem.evaluate(x)[0])
        record.offer(value, x)
        return value

    while not record.expired():
        try:
            dual_annealing(f, [(-1.0, 1.0)] * problem.n, seed=seed * 1000 + restart)
        except Expired:
            break
        restart += 1
    return record.result()


def peer_jobs(instance: str, settings: Settings, peers: list[str]) -> list[Job]:
    longest = max(settings.budgets)
    runs = {"cma": cma_run, "scipy": annealing_run}
    return [Job("continuous", instance, peer, seed, (runs[peer], instance, seed, longest), expected=longest)
            for peer in peers for seed in range(settings.seeds)]


def size(instance: str) -> str:
    return f"Weierstrass, dimension {instance}: known minimum {weierstrass(instance).instance.known_minimum:.4f}"


DOMAIN = Domain("continuous", "weierstrass", SEARCH, "best_f", PEERS, peer_jobs, gap, size, TARGETS, notes=(
    ("gap: (f - the known minimum) / |the known minimum|, in %; the minimum, -2.81562 per coordinate, is a numerical "
     "estimate good to about 1e-4 per coordinate (mols/instances/weierstrass/SOURCE.md), so a gap may dip below 0"),
    ("cma: CMA-ES with IPOP restarts (populations doubled), each population evaluated at once by the problem's NumPy "
     "evaluation; scipy: dual_annealing, restarted with the next seed where it ends early; both stopped at the "
     "longest budget and read at each from their best value so far"),
))
