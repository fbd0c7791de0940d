"""Where a device walk's time goes: for a tabu run on the GPU, the profile split (evaluation = the walk's
batches, archiving, ls process) and, apart, one batch of `walk_batch` steps replayed alone (CUDA events
around the graph: the device's share of a step).

    python scripts/walk_profile.py 020_10_01 200_20_01 --iterations 10000
"""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.bench.common import graph_seconds
from mols.problems import load_problem, problem_entry
from mols.search.tabu import AggregatedTabu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", nargs="+")
    parser.add_argument("--problem", default="flowshop")
    parser.add_argument("--iterations", type=int, default=10_000)
    args = parser.parse_args()
    for name in args.instances:
        problem = load_problem(args.problem, name)
        nbh = problem.neighborhood(problem_entry(args.problem).neighborhood)
        ev = prepare(problem, nbh, BackendSpec("gpu"))
        search = AggregatedTabu(problem, nbh, ev, args.iterations, np.random.default_rng(0))
        result = search.run()
        per = {part: 1e6 * v["seconds"] / result.iterations for part, v in result.profile.items()}
        print(f"{name}: {1e6 * result.wall_seconds / result.iterations:.1f} us per step; "
              + ", ".join(f"{part} {us:.1f}" for part, us in per.items()), flush=True)
        walk = ev._walk
        x = problem.random_solution(np.random.default_rng(1))
        c = np.ones(problem.n_obj) / problem.n_obj
        ev.selection.start(x, c, np.inf)
        batch = walk.batch
        seconds = graph_seconds(ev, partial(walk._enqueue_steps, batch), 20)
        print(f"{name}: one graph of {batch} steps alone: {1e6 * seconds / batch:.1f} us per step", flush=True)


if __name__ == "__main__":
    main()
