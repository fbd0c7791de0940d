"""One line per results folder: algorithm, backend, budget, wall time, profile split, archive size.

Usage: python scripts/summarize_runs.py RESULTS_DIR...
"""
import json
import sys
from pathlib import Path

print("| instance | algorithm | backend | device | iterations | wall s | ms/iteration | evaluation % | "
      "archiving % | ls process % | archive |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for folder in map(Path, sys.argv[1:]):
    run = json.loads((folder / "run.json").read_text())
    cfg, prof = run["config"], run["profile"]
    print(f"| {cfg['instance']} | {run['algorithm']} | {cfg['backend']} | {run['device']} | {run['iterations']} | "
          f"{run['wall_seconds']:.2f} | {1e3 * run['wall_seconds'] / run['iterations']:.3f} | "
          + " | ".join(f"{prof[p]['percent']:.1f}" for p in ("evaluation", "archiving", "ls process"))
          + f" | {run['archive_size']} |")
