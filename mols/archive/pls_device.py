"""Iterations of Pareto local search run on the device in batches, without the host between them: PLS-1
with the resident archive (resident.py) on problems that make a solution's state on the device
(Problem.load_kernel: the flowshop).

An iteration is these steps on the evaluator's stream, after a first draw of the batch:
- the problem's load kernel makes the drawn member's state;
- the evaluation;
- the GPU filter and the members' update. refuse_overflow runs first: an iteration whose accepted
  neighbors do not fit is undone, and it ends the batch; the host grows the buffers and runs it again;
- update_solutions (resident.cu): the solutions' update, then the next member drawn from the
  counter-based draw of (seed, iteration), exactly as the host's pick_rank draws it, marked visited, and
  `active` set.

An iteration without a member (none unvisited, the batch's count reached, or after an overflow) does
nothing and is not counted. A batch of G iterations is one CUDA graph. G is a power of two no larger than the
unvisited members, the iterations left (the budget's cap on iterations: an evaluations budget ends exactly) and
MOST (1 where PLS has a target, looked at after every iteration). A start can still end inside a batch (an
accepted neighbor may remove several unvisited members): the batch's remaining iterations find no member, so
the count and the natural end are the host's, and only their evaluations, at most G - 1 once per start, are
spent for nothing. The host looks at the time between batches.
Around a batch only the parameters go up and the counter, the overflow flag, the size and the unvisited
count come back. The members drawn and the members kept are the host-driven loop's (search/pls.py), so
the same seed gives the same front.
"""

from __future__ import annotations

import numpy as np

from mols.backends.cuda import PackedBuffers, compile_kernel

MOST = 64  # iterations per batch at most
LOAD_BLOCK = 1024  # threads of the load kernel (flowshop.cu's LOAD_BLOCK: its launch bound)
SEED, COUNTER, LIMIT, OVERFLOW = range(4)  # ctl's entries (resident.cu's CTL_*; CTL_CHOSEN is the device's)


class DeviceIterations:
    def __init__(self, resident, most: int = MOST):
        ev = resident.ev
        self.resident, self.most = resident, most
        self._draw, self._refuse = (resident.module.get_function(name) for name in ("first_draw", "refuse_overflow"))
        self._load = compile_kernel(ev.source, ev.problem.load_kernel(ev.nbh))
        self.ctl = PackedBuffers([((5,), np.int64)])
        self._graphs, self._buffer = {}, None  # iterations -> graph, for the archive's buffers as they were
        self.pending = False  # a batch launched and not read back yet

    def run(self, seed: int, counter: int, limit: int, dominating: bool) -> int:
        """One batch from iteration `counter` (the draws' counter) of the start's archive as it stands, ending
        before `limit`; the counter after it (fewer iterations than asked where an overflow grew the buffers).
        With `dominating`, each member offers only its neighbors that dominate it (PLS-√)."""
        r = self.resident
        size = len(r)
        iterations = 1 << (min(self.most, r.unvisited, limit - counter).bit_length() - 1)
        r.device.gpu_filter.set_params(size, np.zeros(r.device.buffer.shape[1]) if dominating else None)
        r.out.host[0][0] = r.unvisited
        self.ctl.host[0][:] = (seed, counter, counter + iterations, 0, 0)
        stream = r.ev.stream
        for buffers in (r.device.gpu_filter.params, r.out, self.ctl):
            buffers.upload(stream)
        self.pending = True
        self._graph(iterations).launch(stream)
        self.finish()
        ctl = self.ctl.host[0]
        if ctl[OVERFLOW]:
            r.grow(len(r) + r.ev.n_neighbors)
        return int(ctl[COUNTER])

    def finish(self) -> None:
        """Wait for the batch; the archive's size and unvisited count as the device left them."""
        r, stream = self.resident, self.resident.ev.stream
        for buffers in (r.device.gpu_filter.params, r.out, self.ctl):
            buffers.download(stream)
        stream.synchronize()
        r.device.size, r.unvisited = int(r.device.gpu_filter.params.host[0][0]), int(r.out.host[0][0])
        self.pending = False

    def warm_up(self) -> None:
        """Capture the graph of every batch size (a start's first batch clears what they did)."""
        for g in range(self.most.bit_length()):
            self._graph(1 << g)

    def _graph(self, iterations: int):
        r = self.resident
        if self._buffer is not r.device.buffer:  # grown buffers: graphs captured again
            self._graphs, self._buffer = {}, r.device.buffer
        if iterations not in self._graphs:
            self._graphs[iterations] = r.device.capture(r.ev, lambda: self._enqueue(iterations))
        return self._graphs[iterations]

    def _enqueue(self, iterations: int) -> None:
        r = self.resident
        ev, device, ctl = r.ev, r.device, self.ctl.device[0]
        m, _, f, active = device.gpu_filter.params.device
        x, unvisited = r.params.device[0], r.out.device[0]
        n_acc = device.gpu_filter.accepted_rows()[2]
        capacity = len(device.buffer)

        def refuse(removed) -> None:
            self._refuse((1,), (r.scan,), (m, removed, n_acc, np.int64(capacity), r.visited, ctl))

        def solutions_then_draw(removed) -> None:
            r.members_update(removed, (ctl, active, f))

        with ev.stream:
            self._draw((1,), (r.scan,), (r.X, r.slot, r.visited, device.buffer, m, unvisited, ctl, active, x, f))
        for _ in range(iterations):
            with ev.stream:
                self._load((1, 1), (LOAD_BLOCK,), (*ev.data, *ev.state_args, x, active))
            ev.enqueue_prepare()
            ev.enqueue_launch()
            device.gpu_filter.enqueue(ev.F, device.buffer, capacity, ev.stream, update=True, then=solutions_then_draw,
                                      before_update=refuse)
