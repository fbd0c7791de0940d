"""Where a tuning pass spends its time: Tuner(CASE).best() twice (the first compiles), the second under cProfile.
python3 scripts/probe_tuner.py qap tai100a swap"""

import cProfile
import pstats
import sys
import time

from mols.backends import BackendSpec
from mols.backends.tuning import Tuner
from mols.problems import load_problem

name, instance, nbh_name = sys.argv[1:4]
problem = load_problem(name, instance)
nbh = problem.neighborhood(nbh_name)
for label in ("first", "second"):
    tuner = Tuner(problem, nbh, BackendSpec("gpu"))
    start = time.perf_counter()
    if label == "second":
        profile = cProfile.Profile()
        best = profile.runcall(tuner.best)
    else:
        best = tuner.best()
    print(f"{label} pass {time.perf_counter() - start:.3f} s -> {best.text}")
    print({launch.text: None if t is None else round(t * 1e6, 1) for launch, t in tuner.times.items()})
pstats.Stats(profile).sort_stats("cumulative").print_stats(18)
