"""Whole tabu runs on the GPU with the walk on the device, by batch size, against the host walk
(reports/qap/per_iteration.txt): wall seconds for 10,000 iterations, medians of 3 seeds."""

import sys

import numpy as np

from mols.backends.gpu_walk import DeviceWalk
from mols.search import RunConfig, build_search


def wall(instance: str, batch: int | None, seed: int, iterations: int = 10000) -> tuple[float, int]:
    search = build_search(RunConfig(instance, problem="qap", algorithm="tabu", backend="gpu",
                                    iterations=iterations, seed=seed))
    if batch is None:
        search.evaluator.walk = False  # the host walk
    else:
        search.evaluator._walk = DeviceWalk(search.evaluator, batch=batch)
    result = search.run()
    assert result.status == "completed", result.error
    return result.wall_seconds, int(result.archive.F[0, 0])


if __name__ == "__main__":
    for instance in sys.argv[1].split(","):
        for batch in (None, 16, 64, 256):
            runs = [wall(instance, batch, seed) for seed in range(3)]
            print(f"{instance} batch {batch or 'host'}: {np.median([w for w, _ in runs]):.3f} s "
                  f"(best costs {[c for _, c in runs]})", flush=True)
