"""PLS on the GPU (10,000 iterations, both variants) under each value of one knob, in turn, in one process: the
resident archive's block size (`--scans`: resident.py's `scan`) or the filter's archive slices (`--waves`:
gpu_filter.py's WAVE). Median seconds per value.

    python scripts/probe_pls.py 200_20_01 --scans 256 512 1024
    python scripts/probe_pls.py 200_20_01 --waves 1024 2048 4096
"""

import argparse
import statistics

from mols.archive import gpu_filter, resident
from mols.search import RunConfig, solve


def set_scan(scan: int) -> None:
    resident.ResidentArchive.__init__.__defaults__ = (1024, scan)


def set_wave(wave: int) -> None:
    gpu_filter.WAVE = wave


parser = argparse.ArgumentParser()
parser.add_argument("instance")
knob = parser.add_mutually_exclusive_group(required=True)
knob.add_argument("--scans", type=int, nargs="+")
knob.add_argument("--waves", type=int, nargs="+")
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
values, setter = (args.scans, set_scan) if args.scans else (args.waves, set_wave)
for variant in ("nondominated", "dominating"):
    times = {value: [] for value in values}
    for _ in range(args.repeats):
        for value in values:
            setter(value)
            solve(RunConfig(args.instance, variant=variant, backend="gpu", iterations=20))  # compiled, warm
            times[value].append(solve(RunConfig(args.instance, variant=variant, backend="gpu",
                                                iterations=10_000)).wall_seconds)
    print(variant, {value: round(statistics.median(t), 4) for value, t in times.items()}, times, flush=True)
