"""Device-side study of the flowshop neighborhood kernel: true kernel time (graph replay) per
variant, and where the end-to-end time of one evaluate() call goes. Prints a short table."""
import statistics
import sys
import time

sys.path.insert(0, ".")
import cupy
import numpy as np

from mols.backends.gpu import GpuEvaluator
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop

REPS = 20


def graph_kernel_time(ev, reps=REPS, rounds=30):
    s = ev.stream
    s.begin_capture()
    for _ in range(reps):
        ev.launch()
    g = s.end_capture()
    g.launch(s); s.synchronize()
    a, b = cupy.cuda.Event(), cupy.cuda.Event()
    ts = []
    for _ in range(rounds):
        a.record(s); g.launch(s); b.record(s); b.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(a, b) / reps * 1e3)
    return statistics.median(ts)


def host_time(fn, reps=200):
    for _ in range(20):
        fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1e6)
    return statistics.median(ts)


problem = Flowshop(read_flowshop(resolve_instance(sys.argv[1] if len(sys.argv) > 1 else "200_20_01")))
nbh = NEIGHBORHOODS["insertion"]
x = problem.random_solution(np.random.default_rng(0))
for block in (64, 128, 256):
    for shared in (1, 0):
        orig = problem.cuda_defines
        problem.cuda_defines = lambda o=orig, sh=shared: {**o(), "STAGE_SHARED": sh}
        ev = GpuEvaluator(problem, nbh, block=block)
        problem.cuda_defines = orig
        ev.evaluate_device(x); ev.stream.synchronize()
        print(f"block={block:4d} STAGE_SHARED={shared}: kernel {graph_kernel_time(ev):7.1f} us")

ev = GpuEvaluator(problem, nbh)
ev.evaluate(x)
st = ev._state
print("fill_state      us", host_time(lambda: problem.fill_state(x, st.host)))
print("upload+sync     us", host_time(lambda: (st.upload(ev.stream), ev.stream.synchronize())))
print("launch+sync     us", host_time(lambda: (ev.launch(), ev.stream.synchronize())))
print("launch only     us", host_time(lambda: ev.launch(), reps=50))
ev.stream.synchronize()
import cupyx
out = cupyx.empty_pinned(ev.F.shape, dtype=ev.F.dtype)
print("empty_pinned    us", host_time(lambda: cupyx.empty_pinned(ev.F.shape, dtype=ev.F.dtype)))
print("D2H+sync        us", host_time(lambda: (ev.F.get(stream=ev.stream, out=out), ev.stream.synchronize())))
print("evaluate        us", host_time(lambda: ev.evaluate(x)))
print(f"F bytes {ev.F.nbytes}")
