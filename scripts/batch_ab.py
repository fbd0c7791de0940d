"""Median seconds of batches of tabu searches on the GPU (mols/bench/batch.py's batch_seconds), one line per
(instance, searches), from whichever mols is first on PYTHONPATH: scripts/device_batch.sh runs it on two trees.

    python3 scripts/batch_ab.py 020_10_01,kroA100 1,1024 320 3
"""

import sys

from mols.bench.batch import batch_seconds, search_config

instances, sizes, iterations, repeats = sys.argv[1].split(","), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
for instance in instances:
    for size in map(int, sizes):
        seconds = batch_seconds(search_config(instance, "gpu", iterations), size, repeats)
        print(f"{instance} searches={size} iterations={iterations} seconds={seconds:.4f}", flush=True)
