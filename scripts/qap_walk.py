"""Whole tabu runs on the GPU with the walk on the device, by batch size, against the host walk
(reports/qap/per_iteration.txt): wall seconds for 10,000 iterations, medians of 3 seeds."""

import sys

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.search.tabu import AggregatedTabu


def wall(instance: str, batch: int | None, seed: int, iterations: int = 10000) -> tuple[float, int]:
    problem, nbh = load_problem("qap", instance), get_neighborhood("swap")
    spec = BackendSpec("gpu", device_walk=False) if batch is None else BackendSpec("gpu", walk_batch=batch)
    result = AggregatedTabu(problem, nbh, prepare(problem, nbh, spec), iterations, np.random.default_rng(seed)).run()
    assert result.status == "completed", result.error
    return result.wall_seconds, int(result.archive.F[0, 0])


if __name__ == "__main__":
    for instance in sys.argv[1].split(","):
        for batch in (None, 16, 64, 256):
            runs = [wall(instance, batch, seed) for seed in range(3)]
            print(f"{instance} batch {batch or 'host'}: {np.median([w for w, _ in runs]):.3f} s "
                  f"(best costs {[c for _, c in runs]})", flush=True)
