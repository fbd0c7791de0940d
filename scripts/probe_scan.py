"""PLS on the GPU with the resident archive's kernels in blocks of each SCAN size given (resident.py's `scan`),
in one process, alternating: median seconds of 10,000 iterations per size and variant.

    python scripts/probe_scan.py 200_20_01 --scans 256 512 1024
"""

import argparse
import statistics

from mols.archive import resident
from mols.search import RunConfig, solve

parser = argparse.ArgumentParser()
parser.add_argument("instance")
parser.add_argument("--scans", type=int, nargs="+", default=[256, 512, 1024])
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
init = resident.ResidentArchive.__init__
for variant in ("nondominated", "dominating"):
    times = {scan: [] for scan in args.scans}
    for _ in range(args.repeats):
        for scan in args.scans:
            resident.ResidentArchive.__init__.__defaults__ = (1024, scan)
            config = RunConfig(args.instance, variant=variant, backend="gpu", iterations=10_000)
            solve(RunConfig(args.instance, variant=variant, backend="gpu", iterations=20))
            times[scan].append(solve(config).wall_seconds)
    print(variant, {scan: round(statistics.median(t), 4) for scan, t in times.items()}, times, flush=True)
