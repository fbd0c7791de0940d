"""ILS-3opt merged rounds on the GPU with other block sizes and blocks a multiprocessor (__launch_bounds__):
the kernel's registers and local memory, and the rounds' ILS iterations per second. Same seed everywhere, so every
configuration of a population must end at the same best length.

    python scripts/probe_ils_occupancy.py pcb3038 fi-block 4096,8192 --configs 0:0,64:16,32:32 --rounds 4
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import mols.problems.tsp.ils3opt_gpu as gpu
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import DEFAULT_K, candidate_lists
from mols.problems.tsp.ils3opt import max_segment, start_tours
from mols.problems.tsp.ils_merge import ROUND, MergedRounds, merge_window
from mols.problems.tsp.model import tour_lengths
from mols.search.ils3opt import make_population

RULE = gpu.fi_block_shape


def configure(threads: int, blocks: int) -> None:
    """fi-block's threads a block and blocks a multiprocessor (each 0: ils3opt_gpu.fi_block_shape's)."""
    def shape(*args):
        rule = RULE(*args)
        return threads or rule[0], blocks or rule[1]
    gpu.fi_block_shape = shape


def occupancy(kernel) -> dict:
    return {"regs": kernel.num_regs, "local_bytes": kernel.local_size_bytes}


def measure(problem, strategy: str, P: int, island: int, rounds: int, seed: int = 0) -> dict:
    xy, att, n = problem.xy[0], problem.att, problem.n
    cand = candidate_lists(xy, DEFAULT_K)
    tours = np.empty((P, n), np.int32)
    start_tours(xy, cand, np.uint64(seed), tours)
    pop = make_population(strategy, xy, cand, seed, tours, tour_lengths(xy, tours, att), max_segment(n), att,
                          merged=True)
    rounds_pop = MergedRounds(pop, seed, n, merge_window(n, max_segment(n)), island)
    began = time.perf_counter()
    rounds_pop.run(0, 1)
    descents = time.perf_counter() - began
    began = time.perf_counter()
    rounds_pop.run(1, 1 + rounds * ROUND)
    seconds = time.perf_counter() - began
    return {"P": P, "descents_s": round(descents, 3), "rounds_s": round(seconds, 3),
            "it_per_s": round(P * rounds * ROUND / seconds), "best": int(rounds_pop.best_lengths().min()),
            **occupancy(pop.kernel)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instance")
    parser.add_argument("strategy")
    parser.add_argument("populations")
    parser.add_argument("--configs", default="0:0", help="threads:blocks_per_sm,... (0: fi_block_shape's)")
    parser.add_argument("--island", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    problem = load_tsp(args.instance)
    populations = [int(p) for p in args.populations.split(",")]
    for config in args.configs.split(","):
        threads, blocks = (int(v) for v in config.split(":"))
        configure(threads, blocks)
        measure(problem, args.strategy, populations[0], args.island, 1)  # compile and warm
        for P in populations:
            row = measure(problem, args.strategy, P, args.island, args.rounds)
            print(json.dumps({"instance": args.instance, "strategy": args.strategy, "threads": threads,
                              "blocks": blocks, **row}), flush=True)


if __name__ == "__main__":
    main()
