"""One `mols run` configuration timed in two source trees, in fresh processes that alternate (A, B, A, B,
...): a quick check of one figure of scripts/speed_compare.py that moved.

    python scripts/ab_search.py .base . --repeats 5 instance=200_20_01 algorithm=tabu backend=gpu iterations=10000
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
from mols.runner import RunConfig, solve
fields = json.loads(sys.argv[2])
solve(RunConfig(**{**fields, "iterations": 20}))  # compiles, warms up
result = solve(RunConfig(**fields))
print(json.dumps({"seconds": result.wall_seconds, "profile": result.profile}))
'''


def value(text: str):
    """A count as an int; anything else (an instance such as 020_10_01) as the text."""
    return int(text) if text.isdigit() and not text.startswith("0") else text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("fields", nargs="+", help="RunConfig fields as name=value")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    fields = json.dumps({k: value(v) for k, v in (f.split("=", 1) for f in args.fields)})
    times = {str(Path(tree).resolve()): [] for tree in (args.a, args.b)}
    for _ in range(args.repeats):
        for tree, seconds in times.items():
            done = subprocess.run([sys.executable, "-c", CHILD, tree, fields], capture_output=True, text=True,
                                  cwd=tree, check=True)
            seconds.append(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])
    for tree, seconds in times.items():
        print(f"{tree}: median {statistics.median(seconds):.4f} s, runs {[round(s, 4) for s in seconds]}")


if __name__ == "__main__":
    main()
