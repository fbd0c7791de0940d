"""Threads per move (qap.cu's LANES) and the fused selection kernel, in whole tabu runs on the GPU
with the walk on the device: microseconds per step, medians of 3 seeds of 5,000 steps. The best
costs must not depend on the configuration (the same steps are taken)."""

import sys

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.search.tabu import AggregatedTabu

SWAP = get_neighborhood("swap")


def per_step(instance: str, lanes: int, fused: bool, steps: int = 5000) -> tuple[float, list[int]]:
    problem = load_problem("qap", instance)
    problem.lanes = lanes
    ev = prepare(problem, SWAP, BackendSpec("gpu", fused=fused))
    walls, costs = [], []
    for seed in range(3):
        result = AggregatedTabu(problem, SWAP, ev, steps, np.random.default_rng(seed)).run()
        assert result.status == "completed", result.error
        walls.append(result.wall_seconds / steps * 1e6)
        costs.append(int(result.archive.F[0, 0]))
    return float(np.median(walls)), costs


if __name__ == "__main__":
    for instance in sys.argv[1].split(","):
        for fused in (True, False):
            for lanes in (1, 2, 4, 8, 16, 32):
                us, costs = per_step(instance, lanes, fused)
                print(f"{instance} fused {fused!s:5} lanes {lanes:2}: {us:6.1f} us/step  costs {costs}", flush=True)
