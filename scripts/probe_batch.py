"""Seconds and profile of batches of 1,024 tabu searches (020_10_01, 320 steps) on the GPU, three builds, with the
time spent rebuilding the walks' solutions on the host (Neighborhood.paths, where the tree has it)."""

import time

from mols.bench.batch import search_config
from mols.neighborhoods.base import Neighborhood
from mols.search.batch import build_batch

spent = [0.0]
if hasattr(Neighborhood, "paths"):
    paths = Neighborhood.paths

    def timed(*args, **kwargs):
        start = time.perf_counter()
        out = paths(*args, **kwargs)
        spent[0] += time.perf_counter() - start
        return out

    Neighborhood.paths = timed
for _ in range(3):
    start = time.perf_counter()
    batch = build_batch(search_config("020_10_01", "gpu", 320), 1024)
    spent[0] = 0.0
    results = batch.run()
    print(f"built and run {time.perf_counter() - start:.2f} s; search {results[0].wall_seconds:.4f} s; paths "
          f"{spent[0]:.4f} s; {results[0].profile}", flush=True)
