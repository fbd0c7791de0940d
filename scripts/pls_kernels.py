"""The kernels of PLS iterations on the device, for a profiler: a short PLS run on the GPU builds an archive,
then a few iterations are enqueued one kernel at a time between cudaProfilerStart and Stop, so that

    ncu --profile-from-start off --metrics gpu__time_duration.sum python scripts/pls_kernels.py 200_20_01

lists each kernel's device time alone.
"""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.problems import load_problem
from mols.search.pls import ParetoLocalSearch


def main() -> None:
    import cupy

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instance")
    parser.add_argument("--variant", default="nondominated")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--profiled", type=int, default=3)
    args = parser.parse_args()
    problem = load_problem("flowshop", args.instance)
    nbh = problem.neighborhood("insertion")
    search = ParetoLocalSearch(problem, nbh, prepare(problem, nbh, BackendSpec("gpu")), args.iterations,
                               np.random.default_rng(0), variant=args.variant)
    search.run()
    dev, r = search.local.device_iterations, search.local
    dev._graph = lambda n: SimpleNamespace(launch=lambda stream: dev._enqueue(n))
    if not r.unvisited:
        x = problem.random_solution(np.random.default_rng(1))
        r.clear()
        r.start(x[None], problem.evaluate_one(x)[None])
    print(f"archive {len(r)}, unvisited {r.unvisited}")
    cupy.cuda.runtime.profilerStart()
    for t in range(args.profiled):
        dev.run(7, t, t + 1, args.variant == "dominating")
    cupy.cuda.runtime.profilerStop()


if __name__ == "__main__":
    main()
