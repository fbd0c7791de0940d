"""Issue 22's QAP discrepancy: tai100a's iteration (best_weighted) under the default launch (16 threads per move)
and under 32 threads per move, each on an evaluator made for it ("fresh") and as the tuner makes it (a
with_launch variant sharing the default evaluator's buffers: "shared"). Prints each one's choices on the same
solutions (they must agree) and its median time in rounds and one after another."""

import statistics
import time
from dataclasses import replace

import numpy as np

from mols.backends import BackendSpec
from mols.backends.gpu import DEFAULT_LAUNCH, GpuEvaluator
from mols.problems import load_problem

problem = load_problem("qap", "tai100a")
nbh, spec = problem.neighborhood("swap"), BackendSpec("gpu")
base = GpuEvaluator(problem, nbh, spec)
wide = replace(DEFAULT_LAUNCH, lanes=32)
evs = {"default fresh": GpuEvaluator(problem, nbh, spec), "default shared": base,
       "32 fresh": GpuEvaluator(problem, nbh, spec, wide), "32 shared": base.with_launch(wide)}
rng = np.random.default_rng(0)
xs = [problem.random_solution(rng) for _ in range(4)]
c = np.ones(1)
for name, ev in evs.items():
    picks = [ev.best_weighted(x, c, r, -np.inf) for r, x in enumerate(xs)]
    print(name, "move_threads", ev.move_threads, "grid rows", ev.chunk, "choices", [(int(p[0]), float(p[1])) for p in picks])
times = {name: [] for name in evs}
for r in range(300):
    for name, ev in evs.items():
        start = time.perf_counter()
        ev.best_weighted(xs[r % 4], c, r, -np.inf)
        times[name].append(time.perf_counter() - start)
print("in rounds:", {name: round(statistics.median(t) * 1e6, 1) for name, t in times.items()})
for name, ev in evs.items():
    t = []
    for r in range(300):
        start = time.perf_counter()
        ev.best_weighted(xs[r % 4], c, r, -np.inf)
        t.append(time.perf_counter() - start)
    print("alone:", name, round(statistics.median(t) * 1e6, 1))
