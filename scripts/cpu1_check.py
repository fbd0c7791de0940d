"""The flowshop insertion neighborhood on 1 CPU core, before and after, alternating in fresh processes: a
closer look at the figures that speed_compare.py's two repeats left in doubt.

    python scripts/cpu1_check.py BASE --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from mols.bench.neighborhood import bench_row
from mols.neighborhoods import get_neighborhood
print(json.dumps({size: 1e3 * bench_row(size, get_neighborhood("insertion"), 7, 2)["cpu_1core_s"]
                  for size in ("100x20", "200x20")}))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    trees = {"before": args.base.resolve(), "after": Path(__file__).resolve().parents[1]}
    runs = {name: [] for name in trees}
    for r in range(args.repeats):
        for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
            out = subprocess.run([sys.executable, "-c", CHILD, str(trees[name])], capture_output=True, text=True,
                                 cwd=trees[name], check=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    for size in runs["after"][0]:
        before, after = ([m[size] for m in runs[name]] for name in trees)
        print(f"insertion {size}, CPU 1 core (ms): before {statistics.median(before):.3f} {before}, "
              f"after {statistics.median(after):.3f} {after}, after is faster by "
              f"{statistics.median(before) / statistics.median(after):.3f}")


if __name__ == "__main__":
    main()
