"""The flowshop's kernels timed alone, mean device time per launch over many launches in a row: the insertion
neighborhood (flowshop_neighborhood), the load kernel (flowshop_load: a permutation's state made on the device)
and the apply kernel (flowshop_apply, a tabu step's move).

    python scripts/probe_load.py 200_20_01 --launches 2000
"""

from __future__ import annotations

import argparse

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.backends.cuda import compile_kernel
from mols.problems import load_problem


def timed(launch, launches: int, stream) -> str:
    """Median over 5 runs of the device time per launch (us), and the runs."""
    import cupy

    times = []
    for _ in range(5):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        with stream:
            start.record()
            for _ in range(launches):
                launch()
            end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) * 1e3 / launches)
    return f"median {np.median(times):.2f} us per launch, runs {np.round(times, 2).tolist()}"


def main() -> None:
    import cupy

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instance")
    parser.add_argument("--launches", type=int, default=2000)
    args = parser.parse_args()
    problem = load_problem("flowshop", args.instance)
    nbh = problem.neighborhood("insertion")
    x = problem.random_solution(np.random.default_rng(0))
    ev = prepare(problem, nbh, BackendSpec("gpu"))
    ev.evaluate(x)
    print(f"{args.instance} flowshop_neighborhood: {timed(ev.enqueue_launch, args.launches, ev.stream)}")
    load = compile_kernel(ev.source, problem.load_kernel(nbh))
    apply = compile_kernel(ev.source, problem.apply_kernel(nbh))
    x_dev, active = cupy.asarray(x.astype(np.int32)), cupy.ones(1, dtype=np.int32)
    move, f = cupy.zeros(1, dtype=np.int64), cupy.zeros(problem.n_obj, problem.dtype)  # move 0: all rebuilt
    print(f"{args.instance} flowshop_load: " + timed(
        lambda: load((1, 1), (1024,), (*ev.data, *ev.state_args, x_dev, active)), args.launches, ev.stream))
    print(f"{args.instance} flowshop_apply: " + timed(
        lambda: apply((1, 1), (256,), (*ev.data, *ev.state_args, move, f)), args.launches, ev.stream))


if __name__ == "__main__":
    main()
