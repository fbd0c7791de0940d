"""Device-side study of the flowshop neighborhood kernel: true kernel time (graph replay) per
variant, and where the end-to-end time of one evaluate() call goes. Prints a short table."""
import sys

sys.path.insert(0, ".")
import cupyx
import numpy as np

from mols.backends.gpu import GpuEvaluator, Launch
from mols.bench.common import median_seconds
from mols.bench.neighborhood import kernel_seconds
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop


def host_time(fn, reps=200):
    """Median microseconds of fn() after 20 warm-up calls."""
    return median_seconds(lambda r: fn(), reps, warmup=20) * 1e6


problem = Flowshop(read_flowshop(resolve_instance(sys.argv[1] if len(sys.argv) > 1 else "200_20_01")))
nbh = NEIGHBORHOODS["insertion"]
x = problem.random_solution(np.random.default_rng(0))
for block in (64, 128, 256):
    for shared in (1, 0):
        orig = problem.cuda_defines
        problem.cuda_defines = lambda o=orig, sh=shared: {**o(), "STAGE_SHARED": sh}
        ev = GpuEvaluator(problem, nbh, launch=Launch(block=block))
        problem.cuda_defines = orig
        print(f"block={block:4d} STAGE_SHARED={shared}: kernel {kernel_seconds(ev, x, repeats=600) * 1e6:7.1f} us")

ev = GpuEvaluator(problem, nbh)
ev.evaluate(x)
st = ev.state
print("fill_state      us", host_time(lambda: problem.fill_state(x, st.host)))
print("upload+sync     us", host_time(lambda: (st.upload(ev.stream), ev.stream.synchronize())))
print("launch+sync     us", host_time(lambda: (ev.enqueue_launch(), ev.stream.synchronize())))
print("launch only     us", host_time(lambda: ev.enqueue_launch(), reps=50))
ev.stream.synchronize()
out = cupyx.empty_pinned(ev.F.shape, dtype=ev.F.dtype)
print("D2H+sync        us", host_time(lambda: (ev.F.get(stream=ev.stream, out=out), ev.stream.synchronize())))
print("evaluate        us", host_time(lambda: ev.evaluate(x)))
print(f"F bytes {ev.F.nbytes}")
