"""A tabu walk run on the device: the steps of search/tabu.py's loop without a round trip each.

Each step is the selection's kernels up to select_partial (gpu_select.py), walk_step (walk.cu:
select_final's choice, then the inverse move made tabu, the aspiration threshold, the step counter,
the trail) and the problem's apply kernel, which moves the state on the device (Problem.apply_kernel).
A batch of steps is one CUDA graph; only its trail (the moves taken, their scores and objective
vectors) comes back, and the host rebuilds the solutions visited from the moves (Neighborhood.path). The choices are the host loop's, step for
step: the same kernels select on the same state, forbids and threshold. A sampled neighborhood's
walk takes each step's draw key (Search.draw_keys: consecutive counters): the first goes up with x,
and the apply kernel advances the counter of the key on the device, so that step t draws with keys[t]
as the host loop does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from mols.backends.base import Trail
from mols.backends.cuda import PackedBuffers, compile_kernel, compile_module, kernel_source
from mols.backends.gpu_select import SEL_BLOCK, SELECT_CU
from mols.backends.select import C_TYPES

WALK_CU = Path(__file__).with_name("walk.cu")
APPLY_BLOCK = 256


class DeviceWalk:
    def __init__(self, ev, batch: int):
        self.ev, self.sel, self.batch = ev, ev.selection, batch
        problem, k = ev.problem, ev.problem.n_obj
        defines = {"N_OBJ": k, "FVAL": C_TYPES[np.dtype(problem.dtype)]}
        module = compile_module(kernel_source(defines, ev.nbh.cuda_source(), SELECT_CU.read_text(),
                                              WALK_CU.read_text()))
        self._step = module.get_function("walk_step")
        self._apply = compile_kernel(ev.source, problem.apply_kernel(ev.nbh))
        self.tenure = PackedBuffers([((1,), np.int64)])
        self.trail = PackedBuffers([((batch,), np.int64), ((batch,), np.float64), ((batch, k), problem.dtype)])
        self._graphs = {}  # steps -> the graph of a batch of that many

    def __call__(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int,
                 keys: np.ndarray | None = None) -> Iterator[Trail]:
        """`steps` tabu steps from x, every move admissible at first, step t drawing with keys[t] where the
        neighborhood samples; yields the trail batch by batch, its scores and vectors in views that the
        next batch overwrites."""
        if steps == 0:
            return
        self.sel.start(x, c, threshold, None if keys is None else keys[0])
        self.tenure.host[0][0] = tenure
        self.tenure.upload(self.ev.stream)
        for first in range(0, steps, self.batch):
            m = min(self.batch, steps - first)
            self._graph(m).launch(self.ev.stream)
            self.ev.stream.synchronize()
            ids, scores, F = self.trail.host
            X = self.ev.nbh.path(x, ids[:m], None if keys is None else keys[first:first + m])
            x = X[-1]
            yield X, scores[:m], F[:m]

    def _graph(self, steps: int):
        if steps not in self._graphs:
            self._graphs[steps] = self._capture(steps)
        return self._graphs[steps]

    def _capture(self, steps: int):
        return self.ev.capture(lambda: self._enqueue_steps(steps))

    def _enqueue_steps(self, steps: int) -> None:
        ev, sel, stream = self.ev, self.sel, self.ev.stream
        _, threshold, step, *_ = sel.params.device
        out_id, _, out_f = sel.result.device
        trail_id, trail_score, trail_f = self.trail.device
        for t in range(steps):
            sel.enqueue(final=False)
            with stream:
                self._step((1,), (SEL_BLOCK,), (*sel.final_args(), threshold, step, self.tenure.device[0],
                                                sel.forbidden_until, np.int32(ev.problem.n), trail_id[t:],
                                                trail_score[t:], trail_f[t]))
                self._apply((1,), (APPLY_BLOCK,), (*ev.data, *ev.state.device, out_id, out_f))
            ev.enqueue_prepare()
        self.trail.download(stream)

