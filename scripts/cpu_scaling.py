"""CPU backend scaling study: the insertion neighborhood timed on 1, 4, 8 ... all threads."""
import sys

sys.path.insert(0, ".")
import numba
import numpy as np

import mols
from mols.bench.common import median_seconds

ALL = numba.config.NUMBA_NUM_THREADS
for name in ("050_10_01", "200_20_01"):
    pb = mols.load_problem("flowshop", name)
    nbh = mols.get_neighborhood("insertion")
    xs = [pb.random_solution(np.random.default_rng(s)) for s in range(4)]
    for threads in sorted({1, *(t for t in (4, 8) if t < ALL), ALL}):
        ev = mols.prepare(pb, nbh, "cpu", threads=threads)
        ms = median_seconds(lambda r, ev=ev, xs=xs: ev.evaluate(xs[r % 4]), 15) * 1e3
        print(f"{name} {threads:3d} threads: {ms:8.3f} ms", flush=True)
print(f"threading layer: {numba.threading_layer()}")
