"""-a elite's rounds on the device in one launch each: a block per walk takes its whole round of Ro-TS steps
(the problem's rots_round kernel, qap/rots_round.cu), where the problem has one and a walk's state fits a block's
shared memory; else the walks go side by side a step per launch (rots.py, tabu/gpu_walk.py)."""

from __future__ import annotations

import numpy as np

from mols.backends.cuda import compile_kernel, import_cupy, kernel_source
from mols.backends.launch import problem_defines, problem_source
from mols.problems.kernels import RoundKernel

ROUND_THREADS = 256  # a walk's block: 4,950 swaps of tai100a make about 20 a thread; faster than 512 on tai50a
# and tai100a (reports/qap/)
# bytes of dynamic shared memory a block may take on compute capability 9.0 (227 KiB, opt-in above 48 KiB), less
# room for the kernel's static shared scalars
SHARED_LIMIT = 227 * 1024 - 256
KERNEL = "qap_rots_round"


def round_source(problem, nbh, threads: int = ROUND_THREADS) -> str | None:
    """The round kernel's source (after the problem's own) for blocks of `threads`, or None where the problem has
    none."""
    kernel = problem.kernels.rots_round(nbh, threads)
    if kernel is None:
        return None
    return kernel_source({"ROUND_THREADS": threads}, problem_source(problem_defines(problem, nbh), problem, nbh),
                         kernel.path.read_text())


def device_rounds(ev) -> DeviceRounds | None:
    """The evaluator's round kernel (compiled once per evaluator), or None where there is none or a walk's state
    does not fit a block's shared memory."""
    kernel = ev.problem.kernels.rots_round(ev.nbh, ROUND_THREADS)
    if kernel is None or kernel.shared > SHARED_LIMIT:
        return None
    return ev.companion("rots rounds", lambda: DeviceRounds(ev, kernel))


class DeviceRounds:
    """The walks' arrays on the device and the kernel that takes a round of each (run)."""

    def __init__(self, ev, kernel: RoundKernel):
        cupy = import_cupy()
        self.ev, self.dtype, self.shared = ev, ev.problem.dtype, kernel.shared
        self.kernel = compile_kernel(round_source(ev.problem, ev.nbh), KERNEL)
        if self.shared > 48 * 1024:
            self.kernel.max_dynamic_shared_size_bytes = self.shared
        self.data = tuple(cupy.asarray(np.ascontiguousarray(a, dtype=np.int32)) for a in kernel.data)

    def run(self, x: np.ndarray, left: np.ndarray, tenures: np.ndarray, every: int, lengths: np.ndarray,
            threshold: np.ndarray, best_x: np.ndarray, best: np.ndarray) -> dict:
        """A round of lengths[b] steps of each walk b from x[b], with its Ro-TS table, tenures (W, slots), aspiration
        threshold and best so far: where each walk stands after it (x, its cost, left, threshold) and its best
        (best_x, best), as arrays on the host."""
        cupy = import_cupy()
        with self.ev.queued():
            out = {"x": cupy.asarray(x, dtype=np.int32), "cost": cupy.zeros(len(x), dtype=self.dtype),
                   "left": cupy.asarray(left, dtype=np.int32), "threshold": cupy.asarray(threshold, dtype=self.dtype),
                   "best_x": cupy.asarray(best_x, dtype=np.int32), "best": cupy.asarray(best, dtype=self.dtype)}
            self.kernel((len(x),), (ROUND_THREADS,), (
                *self.data, out["x"], out["cost"], out["left"], cupy.asarray(tenures, dtype=np.int64),
                np.int32(tenures.shape[1]), np.int64(every), cupy.asarray(lengths, dtype=np.int64), out["threshold"],
                out["best_x"], out["best"]), shared_mem=self.shared)
        return {name: self.ev.get(array) for name, array in out.items()}
