"""`mols bench peers` on the TSP: mols against fast-tsp (a run per seed and budget) and LKH-3 through elkai (one run
per instance, in a child process under --lkh-timeout), every tour measured with TSPLIB's rounded distances."""

from __future__ import annotations

import functools
import inspect
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

import numpy as np

from mols.bench.peers_jobs import Domain, Job, MolsSearch, Settings
from mols.problems import gap_percent

INSTANCES = ("pcb3038", "rat783", "fl1577", "fnl4461")
TARGETS = (1.0, 0.5, 0.2, 0.1, 0.05, 0.0)  # % above the optimum
# What mols runs: or3opt (-p tsp -a ils's default on the GPU, its rounds sized by the instance); its Numba twin on the
# CPU backend (CI's small runs).
SEARCH = MolsSearch(gpu={"algorithm": "ils", "strategy": "or3opt"},
                    cpu={"algorithm": "ils", "strategy": "cpu-or3opt", "population": 8})
PEERS = {"fast-tsp": "fast_tsp", "elkai": "elkai"}
FAST_TSP_MAX = 2**16 - 1  # fast-tsp keeps distances in 16 bits
LKH_CHILD = "from mols.bench.peers_tsp import lkh_child; lkh_child()"
LKH_RUNS = 1  # one LKH-3 run (elkai's default is 10: ten times the time for the best of ten)


@functools.cache
def cities(instance: str):
    """(xy, att) of a bundled instance, read once per process."""
    from mols.problems.tsp import load_tsp

    problem = load_tsp(instance)
    return problem.xy[0], problem.att


@functools.cache
def matrix(instance: str) -> np.ndarray:
    from mols.problems.tsp.model import distance_matrix

    return distance_matrix(*cities(instance))


def length(instance: str, tour) -> int:
    """The tour's length as mols measures it."""
    from mols.problems.tsp.model import tour_lengths

    xy, att = cities(instance)
    return int(tour_lengths(xy, np.asarray(tour, np.int64)[None], att)[0])


def optimum(instance: str) -> int:
    from mols.problems.tsp.instance import optimal_lengths

    return optimal_lengths()[instance]


def gap(instance: str, value: float) -> float:
    return gap_percent(value, optimum(instance))


def fast_tsp_run(instance: str, seed: int, seconds: float, threads: int = 1) -> dict:
    """fast-tsp for `seconds` on `threads` threads (fast-tsp 0.1 has one). It takes no seed: seed s relabels the
    cities by a random permutation of seed s (seed 0 too), so that seeds are different runs."""
    import fast_tsp

    D = matrix(instance)
    if D.max() > FAST_TSP_MAX:
        return {"points": [], "note": f"fast-tsp takes distances up to {FAST_TSP_MAX:,}; {instance}'s reach "
                                      f"{int(D.max()):,}"}
    order = np.random.default_rng(seed).permutation(len(D))
    relabelled = D[np.ix_(order, order)]
    threaded = "max_threads" in inspect.signature(fast_tsp.find_tour).parameters
    if threads > 1 and not threaded:
        return {"points": [], "note": "this fast-tsp runs on one thread only (--fast-tsp-threads needs 0.2 or newer)"}
    options = {"max_threads": threads} if threaded else {}
    given = relabelled if options else relabelled.tolist()  # fast-tsp 0.1 converts lists faster than arrays
    start = perf_counter()
    tour = fast_tsp.find_tour(given, duration_seconds=seconds, **options)
    took = perf_counter() - start
    tour = order[np.asarray(tour, np.int64)].tolist()
    return {"points": [[took, length(instance, tour)]], "final": tour}


def elkai_run(instance: str, timeout: float) -> dict:
    """LKH-3 through elkai (one run: LKH_RUNS), once, in a child process killed after `timeout` seconds: its tour at
    the seconds it took."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "tour.npz"
        try:
            done = subprocess.run([sys.executable, "-c", LKH_CHILD, instance, str(out)], timeout=timeout,
                                  capture_output=True, text=True, check=False)
        except subprocess.TimeoutExpired:
            return {"points": [], "note": f"elkai: no tour within --lkh-timeout {timeout:g} s"}
        if done.returncode != 0:
            return {"points": [], "note": f"elkai failed: {done.stderr.strip().splitlines()[-1:]}"}
        with np.load(out) as saved:
            tour, took = saved["tour"].tolist(), float(saved["seconds"])
    return {"points": [[took, length(instance, tour)]], "final": tour}


def lkh_child() -> None:
    """The child of elkai_run: INSTANCE OUT.npz from argv; LKH-3 timed from the coordinates (EUC_2D: elkai passes
    them as such) or, for other distances, the matrix."""
    import elkai

    instance, out = sys.argv[1], sys.argv[2]
    xy, att = cities(instance)
    start = perf_counter()
    if att:
        tour = elkai.DistanceMatrix(matrix(instance).tolist()).solve_tsp(runs=LKH_RUNS)
    else:
        coords = {str(i): (float(x), float(y)) for i, (x, y) in enumerate(xy)}
        tour = [int(city) for city in elkai.Coordinates2D(coords).solve_tsp(runs=LKH_RUNS)]
    seconds = perf_counter() - start
    np.savez(out, tour=np.asarray(tour[:-1], np.int64), seconds=seconds)  # elkai repeats the first city at the end


def peer_jobs(instance: str, settings: Settings, peers: list[str]) -> list[Job]:
    jobs = []
    if "fast-tsp" in peers:
        threads = settings.fast_tsp_threads
        jobs += [Job("tsp", instance, "fast-tsp", seed, (fast_tsp_run, instance, seed, budget, threads), budget=budget,
                     expected=budget, threads=threads) for seed in range(settings.seeds) for budget in settings.budgets]
    if "elkai" in peers:
        jobs.append(Job("tsp", instance, "elkai", 0, (elkai_run, instance, settings.lkh_timeout),
                        expected=settings.lkh_timeout))
    return jobs


def size(instance: str) -> str:
    return f"{instance}: {len(cities(instance)[0]):,} cities, optimum {optimum(instance):,}"


DOMAIN = Domain("tsp", "tsp", SEARCH, "best_length", PEERS, peer_jobs, gap, size, TARGETS, notes=(
    ("gap: % above the optimum (mols/instances/tsp/tsp_opt.csv); every tour measured with TSPLIB's EUC_2D (rounded) "
     "distances, as mols measures it"),
    ("fast-tsp: one single-threaded run per seed and budget (it cannot report as it goes), seed s relabelling the "
     "cities by a random permutation; a run counts at its budget, though it also takes the time fast-tsp converts its "
     "input in (peers.csv's seconds); its time to a target is the seconds of the shortest run that reached it"),
    ("elkai: LKH-3, one LKH run (elkai's runs=1), once per instance in a child process under --lkh-timeout; its tour "
     "counts from the seconds it took"),
))
