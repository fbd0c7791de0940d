"""Same seed, same front, before and after a change: runs each configuration with two source trees (the
current one and an earlier checkout, e.g. `git worktree add /tmp/base <commit>`) in fresh processes and
compares the archives (objective vectors and solutions, sorted).

    python scripts/same_fronts.py BASE_TREE [--backend cpu|gpu]

Prints one line per configuration and exits with 1 if any front differs. CASES cover every problem (flowshop
PLS-≠, PLS-√, tabu and swap; QAP tabu and ITS; mQAP; TSP 2-opt and swap; biTSP; PPP Hamming 2; Weierstrass; Q3AP
advanced; coloring); GPU_CASES, run with --backend gpu only, ILS-3opt on fi-block, plain and in merged rounds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CASES = [  # RunConfig fields, small budgets
    {"instance": "020_10_01", "algorithm": "pls", "iterations": 300},
    {"instance": "020_10_01", "algorithm": "pls", "variant": "dominating", "iterations": 300},
    {"instance": "050_10_01", "algorithm": "tabu", "iterations": 300},
    {"instance": "ta011", "algorithm": "pls", "neighborhood": "swap", "iterations": 200},
    {"instance": "tai25a", "problem": "qap", "algorithm": "tabu", "iterations": 2000},
    {"instance": "tai25a", "problem": "qap", "algorithm": "its", "iterations": 3000},
    {"instance": "KC10-2fl-1uni", "problem": "mqap", "algorithm": "pls", "iterations": 300},
    {"instance": "kroA100", "problem": "tsp", "algorithm": "tabu", "iterations": 1000},
    {"instance": "kroA100", "problem": "tsp", "algorithm": "tabu", "neighborhood": "swap", "iterations": 500},
    {"instance": "kroAB100", "problem": "bitsp", "algorithm": "pls", "iterations": 200},
    {"instance": "73-73", "problem": "ppp", "algorithm": "tabu", "neighborhood": "hamming2", "iterations": 300},
    {"instance": "2", "problem": "weierstrass", "algorithm": "tabu", "iterations": 20},
    {"instance": "nug12", "problem": "q3ap", "algorithm": "its", "neighborhood": "advanced", "iterations": 1000},
    {"instance": "queen6_6", "problem": "coloring", "algorithm": "tabu", "iterations": 300},
]
GPU_CASES = [  # --backend gpu only: ILS-3opt's fi-block, its solutions independent and in merged rounds
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block", "population": 64,
     "iterations": 64 * 50},
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block", "population": 128,
     "merge": 64, "iterations": 128 * 64},
]
CHILD = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from mols.runner import RunConfig, solve
fields = json.loads(sys.argv[2])
if "strategy" in fields:  # ILS-3opt runs as `mols run -p tsp -a ils --strategy S` runs it
    from mols.algorithms.ils3opt.search import config_result
    result = config_result(RunConfig(**fields))[0]
else:
    result = solve(RunConfig(**fields))
F, X = result.archive.F, result.archive.X
order = np.lexsort(np.hstack([F, X]).T[::-1])
same = lambda a: np.ascontiguousarray(a[order], dtype=np.float64 if a.dtype.kind == "f" else np.int64).tobytes()
print(len(F), hashlib.sha256(same(F) + same(X)).hexdigest()[:16])
"""


def front(tree: Path, case: dict) -> str:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), json.dumps(case)], capture_output=True, text=True,
                          cwd=tree, check=False)
    return done.stdout.strip() if done.returncode == 0 else f"failed: {done.stderr.strip()[-300:]}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    differ = 0
    for case in CASES + (GPU_CASES if args.backend == "gpu" else []):
        case = {**case, "backend": args.backend, "seed": 1}
        before, after = front(args.base.resolve(), case), front(here, case)
        same = before == after and not before.startswith("failed")
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}  {json.dumps(case)}  before {before}  after {after}", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
