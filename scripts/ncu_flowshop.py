"""One evaluate of insertion on 200x20, for `ncu` to profile the kernel."""
import sys

sys.path.insert(0, ".")
import numpy as np

from mols.backends.gpu import GpuEvaluator
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop

problem = Flowshop(read_flowshop(resolve_instance("200_20_01")))
ev = GpuEvaluator(problem, NEIGHBORHOODS["insertion"])
x = problem.random_solution(np.random.default_rng(0))
ev.evaluate_device(x); ev.stream.synchronize()
