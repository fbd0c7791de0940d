"""PLS on the GPU with the filter's against_archive split into at most WAVE blocks' worth of archive slices
(gpu_filter.py's WAVE), each value given in turn, in one process: median seconds of 10,000 iterations.

    python scripts/probe_wave.py 200_20_01 --waves 1024 2048 4096
"""

import argparse
import statistics

from mols.archive import gpu_filter
from mols.search import RunConfig, solve

parser = argparse.ArgumentParser()
parser.add_argument("instance")
parser.add_argument("--waves", type=int, nargs="+", default=[1024, 2048, 4096])
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
for variant in ("nondominated", "dominating"):
    times = {wave: [] for wave in args.waves}
    for _ in range(args.repeats):
        for wave in args.waves:
            gpu_filter.WAVE = wave
            solve(RunConfig(args.instance, variant=variant, backend="gpu", iterations=20))
            times[wave].append(solve(RunConfig(args.instance, variant=variant, backend="gpu",
                                               iterations=10_000)).wall_seconds)
    print(variant, {wave: round(statistics.median(t), 4) for wave, t in times.items()}, times, flush=True)
