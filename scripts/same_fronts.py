"""Same seed, same front, before and after a change: runs each configuration with two source trees (the
current one and an earlier checkout, e.g. `git worktree add /tmp/base <commit>`), each `mols run` in a fresh
process, and compares their front.csv files byte for byte.

    python scripts/same_fronts.py BASE_TREE [--backend cpu|gpu]

Prints one line per configuration and exits with 1 if any front differs. CASES cover every problem (flowshop
PLS-≠, PLS-√, tabu and swap; QAP tabu and ITS; mQAP; TSP 2-opt and swap; biTSP; PPP Hamming 2; Weierstrass; Q3AP
advanced; coloring); CPU_CASES and GPU_CASES, ILS-3opt (Numba, fi-block), plain and in merged rounds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
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
CPU_CASES = [  # --backend cpu only: ILS-3opt's Numba reference, its solutions independent and in merged rounds
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "cpu", "population": 8, "iterations": 8 * 40},
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "cpu", "population": 16, "merge": 8,
     "iterations": 16 * 40},
]
GPU_CASES = [  # --backend gpu only: ILS-3opt's fi-block, its solutions independent and in merged rounds
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block", "population": 64,
     "iterations": 64 * 50},
    {"instance": "lin318", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block", "population": 128,
     "merge": 64, "iterations": 128 * 64},
]
FLAGS = ("problem", "algorithm", "variant", "neighborhood", "iterations", "strategy", "population", "merge", "backend",
         "seed")


def front(tree: Path, case: dict, out: Path) -> str:
    """`mols run` of the case with `tree`'s mols in a fresh process: its front.csv's rows and the hash of its bytes."""
    folder = out / f"{tree.name}-{abs(hash(json.dumps(case, sort_keys=True)))}"
    args = [case["instance"], "--output", str(folder), "--overwrite"]
    args += [a for key in FLAGS if key in case for a in (f"--{key}", str(case[key]))]
    done = subprocess.run([sys.executable, "-m", "mols", "run", *args], capture_output=True, text=True, cwd=tree,
                          env={**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
                          check=False)
    if done.returncode:
        return f"failed: {(done.stderr or done.stdout).strip()[-300:]}"
    data = (folder / "front.csv").read_bytes()
    rows = len(data.splitlines()) - 1
    return f"{rows} rows, front.csv {hashlib.sha256(data).hexdigest()[:16]}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    differ, out = 0, Path(tempfile.mkdtemp(prefix="same-fronts-"))
    for case in CASES + (GPU_CASES if args.backend == "gpu" else CPU_CASES):
        case = {**case, "seed": 1} if "strategy" in case else {**case, "backend": args.backend, "seed": 1}
        before, after = front(args.base.resolve(), case, out), front(here, case, out)
        same = before == after and not before.startswith("failed")
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}  {json.dumps(case)}  before {before}  after {after}", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
