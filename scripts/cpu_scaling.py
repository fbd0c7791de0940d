"""CPU backend scaling study: the insertion neighborhood, and a pure-compute reference loop, timed
on 1 .. all threads, so the flowshop kernel's speed-up can be read against the machine's own.

Usage: python scripts/cpu_scaling.py [CHUNK]   (CHUNK: moves per parallel work item)
"""
import sys

sys.path.insert(0, ".")
import numba
import numpy as np
from numba import njit, prange

import mols
import mols.problems.flowshop.cpu as flowshop_cpu
from mols.bench.common import median_seconds

if len(sys.argv) > 1:
    flowshop_cpu.CHUNK = int(sys.argv[1])  # read when the kernel is first compiled
ALL = numba.config.NUMBA_NUM_THREADS
THREADS = sorted({1, 2, 4, 8, 12, ALL} & set(range(1, ALL + 1)))


@njit(parallel=True)
def compute_only(out):
    # a xorshift chain per item: no memory traffic, so its scaling is the cores' own
    for item in prange(out.size):
        x = np.uint64(item + 1)
        for _ in range(20000):
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
        out[item] = x


def scaling(label, call):
    base = None
    for threads in THREADS:
        numba.set_num_threads(threads)
        ms = median_seconds(lambda r: call(), 15) * 1e3
        base = base or ms
        print(f"{label:28s} {threads:3d} threads: {ms:9.3f} ms  speed-up {base / ms:5.2f}", flush=True)
    numba.set_num_threads(ALL)


out = np.empty(4096, dtype=np.uint64)
scaling("compute-only reference", lambda: compute_only(out))
for name in ("050_10_01", "200_20_01"):
    pb = mols.load_problem("flowshop", name)
    ev = mols.prepare(pb, mols.get_neighborhood("insertion"), "cpu")
    x = pb.random_solution(np.random.default_rng(0))
    ev.evaluate(x)
    state = ev._state
    scaling(f"{name} chunk {flowshop_cpu.CHUNK}", lambda ev=ev, state=state: ev._kernel(*ev._data, *state, ev._F))
print(f"threading layer: {numba.threading_layer()}, NUMBA_NUM_THREADS={ALL}")
