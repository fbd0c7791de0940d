"""CPU backend scaling study: all-core evaluator timed alone, then interleaved with a 1-core one."""
import statistics
import sys
import time

sys.path.insert(0, ".")
import numba
import numpy as np

import mols


def med(ev, xs, reps=15):
    ev.evaluate(xs[0])
    ts = []
    for r in range(reps):
        t = time.perf_counter(); ev.evaluate(xs[r % len(xs)]); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3


for name in ("050_10_01", "200_20_01"):
    pb = mols.load_problem("flowshop", name)
    nbh = mols.get_neighborhood("insertion")
    xs = [pb.random_solution(np.random.default_rng(s)) for s in range(4)]
    one = mols.prepare(pb, nbh, "cpu", threads=1)
    for threads in (16, 8, 4):
        ev = mols.prepare(pb, nbh, "cpu", threads=threads)
        print(f"{name} {threads:2d} threads alone: {med(ev, xs):8.3f} ms", flush=True)
    print(f"{name}  1 thread        : {med(one, xs):8.3f} ms")
    allc = mols.prepare(pb, nbh, "cpu")
    print(f"{name} 16 threads after 1-thread runs: {med(allc, xs):8.3f} ms; threading layer {numba.threading_layer()}")
