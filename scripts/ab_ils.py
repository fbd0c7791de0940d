"""ILS-3opt timed in two source trees, in fresh processes that alternate (A, B, A, B, ...): the same search
(same seed, population and iterations per solution) in both, so the best lengths must agree and the seconds
compare the kernels. Prints one JSON line per run, then the medians.

    python scripts/ab_ils.py .base . --repeats 3 pcb3038 fi-block 256 300
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from mols.problems.tsp import load_tsp
from mols.algorithms.ils3opt.search import run_ils3opt
instance, strategy, population, per_solution = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
problem = load_tsp(instance)
r = run_ils3opt(problem, strategy, population, population * per_solution, None, None, 0)
print(json.dumps({"seconds": r.seconds, "best": r.best, "iterations": r.total_iterations}))
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("case", nargs=4, metavar="CASE", help="INSTANCE STRATEGY POPULATION PER_SOLUTION")
    args = parser.parse_args()
    times = {tree: [] for tree in args.trees}
    bests = set()
    for _ in range(args.repeats):
        for tree in args.trees:
            out = subprocess.run([sys.executable, "-c", CHILD, tree, *args.case], capture_output=True, text=True,
                                 check=True).stdout.strip().splitlines()[-1]
            run = json.loads(out)
            print(json.dumps({"tree": tree, **run}), flush=True)
            times[tree].append(run["seconds"])
            bests.add(run["best"])
    a, b = (statistics.median(times[tree]) for tree in args.trees)
    print(f"{' '.join(args.case)}: {args.trees[0]} {a:.3f} s, {args.trees[1]} {b:.3f} s, "
          f"{args.trees[0]} / {args.trees[1]} = {a / b:.2f}x, best lengths {sorted(bests)}")


if __name__ == "__main__":
    main()
