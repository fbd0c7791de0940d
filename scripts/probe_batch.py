"""Seconds and profile of a batch of tabu searches (020_10_01, one weight vector) on the GPU against one search
alone, in one process, and the ratio of their neighbors per second (the batch's searches x one search's seconds /
the batch's seconds), with the time spent rebuilding the walks' solutions on the host (Neighborhood.paths).

    python scripts/probe_batch.py --steps 320 --size 1024
"""

import argparse
import statistics
import time

from mols.bench.batch import search_config
from mols.neighborhoods.base import Neighborhood
from mols.search import solve
from mols.search.batch import build_batch

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=320)
parser.add_argument("--size", type=int, default=1024)
parser.add_argument("--instance", default="020_10_01")
parser.add_argument("--backend", default="gpu")
args = parser.parse_args()
spent = [0.0]
paths = Neighborhood.paths


def timed(*a, **kw):
    start = time.perf_counter()
    out = paths(*a, **kw)
    spent[0] += time.perf_counter() - start
    return out


Neighborhood.paths = timed
config = search_config(args.instance, args.backend, args.steps)
one = statistics.median(solve(config).wall_seconds for _ in range(4))
for _ in range(3):
    start = time.perf_counter()
    batch = build_batch(config, args.size)
    spent[0] = 0.0
    result = batch.run()[0]
    seconds = result.wall_seconds
    profile = {part: round(v["seconds"], 4) for part, v in result.profile.items()}
    print(f"{args.instance} {args.steps} steps: one search {one:.4f} s; {args.size} searches built and run "
          f"{time.perf_counter() - start:.2f} s, search {seconds:.4f} s, ratio {args.size * one / seconds:.1f}x; "
          f"paths {spent[0]:.4f} s; {profile}", flush=True)
