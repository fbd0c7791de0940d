"""The elite search's QAP goals (issue 40): each instance's gap to the best known after --time seconds, for each seed
and their median, in one process (kernels compiled once): python scripts/elite_goals.py tai100a --time 20."""

from __future__ import annotations

import argparse
import statistics
import time

from mols.bench.qap import best_known
from mols.runner import RunConfig, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("instances", nargs="+")
    parser.add_argument("--time", type=float, default=20.0)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--backend", default="gpu")
    parser.add_argument("--walkers", type=int, default=None, help="default: the elite search's")
    parser.add_argument("--algorithm", default="elite", help="elite, or its for the baseline")
    parser.add_argument("--memory", default=None, help="elite's tabu memory: rots or moves (default: the elite's)")
    args = parser.parse_args()
    bks = best_known()
    extra = {key: value for key, value in (("walkers", args.walkers), ("memory", args.memory)) if value is not None}
    for instance in args.instances:
        gaps = []
        for seed in range(args.seeds):
            start = time.perf_counter()
            result = solve(RunConfig(instance, problem="qap", algorithm=args.algorithm, backend=args.backend,
                                     time=args.time, seed=seed, **extra))
            best = int(result.archive.F[:, 0].min())
            gaps.append(100 * (best - bks[instance]) / bks[instance])
            print(f"{instance} {args.algorithm} seed {seed}: {best} gap {gaps[-1]:.3f} % iterations "
                  f"{result.iterations} walk {result.walk} ({time.perf_counter() - start:.1f} s)", flush=True)
        print(f"{instance} {args.algorithm} {args.time:g} s: median gap {statistics.median(gaps):.3f} % over "
              f"{args.seeds} seeds", flush=True)


if __name__ == "__main__":
    main()
