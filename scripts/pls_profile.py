"""Where a PLS run's time goes when its iterations run on the device (archive/pls_device.py): the profile
split, the batches (how many, their sizes), and the device's time per iteration (CUDA events around each
batch's graph) against the wall time per iteration.

    python scripts/pls_profile.py 020_10_01 200_20_01 --iterations 10000
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from mols.archive import pls_device
from mols.backends import BackendSpec, prepare
from mols.problems import load_problem
from mols.search.pls import ParetoLocalSearch


def instrument(records: list) -> None:
    """Every batch's size, wall time of run(), and device time (events around its graph) into records."""
    import cupy

    run, graph = pls_device.DeviceIterations.run, pls_device.DeviceIterations._graph

    class Timed:
        def __init__(self, g, n):
            self.g, self.n = g, n

        def launch(self, stream):
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record(stream)
            self.g.launch(stream)
            end.record(stream)
            records.append([self.n, start, end, 0.0])

    def timed_run(self, *args):
        t = time.perf_counter()
        out = run(self, *args)
        records[-1][3] = time.perf_counter() - t
        return out

    pls_device.DeviceIterations.run = timed_run
    pls_device.DeviceIterations._graph = lambda self, n: Timed(graph(self, n), n)


KERNELS = {"device": ("_draw", "_load", "_settle"), "ev": ("_kernel",),
           "filter": ("_against_archive", "_count", "_against_survivors", "_scan", "_scatter", "_scatter_first",
                      "_mark_removed")}


def kernel_times(dev, dominating: bool, problem, repeats: int = 20) -> dict[str, float]:
    """Median microseconds of each kernel of one iteration, enqueued without a graph (events around each)."""
    import statistics
    from types import SimpleNamespace

    import cupy

    log = collections.defaultdict(list)
    owners = {"device": dev, "ev": dev.resident.ev, "resident": dev.resident, "filter": dev.resident.device.gpu_filter}

    def timed(name, fn):
        def call(*a, **k):
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            fn(*a, **k)
            end.record()
            log[name].append((start, end))
        return call

    saved = {}
    for owner, names in KERNELS.items():
        for name in names:
            saved[owner, name] = getattr(owners[owner], name)
            setattr(owners[owner], name, timed(name, saved[owner, name]))
    dev._graph = lambda n: SimpleNamespace(launch=lambda stream: dev._enqueue(n))
    r = dev.resident
    for t in range(repeats):
        if not r.unvisited:
            x = problem.random_solution(np.random.default_rng(t))
            r.clear()
            r.start(x[None], problem.evaluate_one(x)[None])
        dev.run(7, t, t + 1, dominating)
    cupy.cuda.Device().synchronize()
    for (owner, name), fn in saved.items():
        setattr(owners[owner], name, fn)
    del dev._graph
    return {name: 1e3 * statistics.median(cupy.cuda.get_elapsed_time(s, e) for s, e in pairs) * len(pairs) / repeats
            for name, pairs in log.items()}


def main() -> None:
    import cupy

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", nargs="+")
    parser.add_argument("--iterations", type=int, default=10_000)
    args = parser.parse_args()
    records = []
    instrument(records)
    for name in args.instances:
        problem = load_problem("flowshop", name)
        nbh = problem.neighborhood("insertion")
        for variant in ("nondominated", "dominating"):
            ev = prepare(problem, nbh, BackendSpec("gpu"))
            search = ParetoLocalSearch(problem, nbh, ev, args.iterations, np.random.default_rng(0), variant=variant)
            search.run()  # warm
            records.clear()
            search = ParetoLocalSearch(problem, nbh, ev, args.iterations, np.random.default_rng(1), variant=variant)
            search.local = ev_local = search.local
            result = search.run()
            device = sum(cupy.cuda.get_elapsed_time(s, e) for _, s, e, _ in records) / 1e3
            host = sum(r[3] for r in records)
            sizes = collections.Counter(r[0] for r in records)
            us = 1e6 / result.iterations
            print(f"{name} {variant}: {result.wall_seconds:.3f} s, {result.starts} starts, {len(records)} batches "
                  f"(sizes {dict(sorted(sizes.items()))}), front {len(result.archive)}, last start's archive "
                  f"{len(ev_local)}; per iteration: wall {us * result.wall_seconds:.1f} us, batches' run() "
                  f"{us * host:.1f} us, their graphs on the device {us * device:.1f} us; profile "
                  + ", ".join(f"{p} {us * v['seconds']:.1f}" for p, v in result.profile.items()), flush=True)
            times = kernel_times(ev_local.device_iterations, variant == "dominating", problem)
            print("  kernels (us per iteration): " + ", ".join(f"{k} {v:.1f}" for k, v in times.items()), flush=True)


if __name__ == "__main__":
    main()
