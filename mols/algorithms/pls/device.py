"""Iterations of Pareto local search run on the device in batches, one CUDA graph each, without the host between
them: PLS-1 with the resident archive (resident.py) on problems that make a member's state on the device
(KernelSet.load_kernels: the flowshop). The steps and the batch sizes: docs/internals.md."""

from __future__ import annotations

import numpy as np

from mols.backends.cuda import PackedBuffers, compile_kernel

MOST = 64  # iterations per batch at most
FEW = 32  # iterations per batch at least, when the iterations left allow: an iteration often adds members, and
# PLS-√'s archives have few (32 rather than 16: slightly faster, reports/pls/)
LOAD_BLOCK = 1024  # threads of the load kernel (flowshop.cu's LOAD_BLOCK: its launch bound)
SEED, COUNTER, LIMIT, OVERFLOW = range(4)  # ctl's entries (resident.cu's CTL_*; CTL_CHOSEN is the device's)


class DeviceIterations:
    def __init__(self, resident, most: int = MOST):
        ev = resident.ev
        self.resident, self.most = resident, most
        self._draw, self._settle = (resident.module.get_function(name) for name in ("first_draw", "settle_iteration"))
        self._load = compile_kernel(ev.source, ev.problem.kernels.load_kernels.get(ev.nbh.name))
        self.ctl = PackedBuffers([((5,), np.int64)])
        self._graphs, self._buffer = {}, None  # iterations -> graph, for the archive's buffers as they were
        self.pending = False  # a batch launched and not read back yet

    def run(self, seed: int, counter: int, limit: int, dominating: bool) -> int:
        """One batch from iteration `counter` (the draws' counter) of the start's archive as it stands, ending
        before `limit`; the counter after it (fewer iterations than asked where an overflow grew the buffers).
        With `dominating`, each member offers only its neighbors that dominate it (PLS-√)."""
        r = self.resident
        size = len(r)
        iterations = 1 << (min(self.most, max(r.unvisited, FEW), limit - counter).bit_length() - 1)
        r.device.gpu_filter.set_params(size, np.zeros(r.device.buffer.shape[1]) if dominating else None)
        r.out.host[0][0] = r.unvisited
        self.ctl.host[0][:] = (seed, counter, counter + iterations, 0, 0)
        self.pending = True
        r.ev.replay(self._graph(iterations))
        self.finish()
        ctl = self.ctl.host[0]
        if ctl[OVERFLOW]:
            r.grow(len(r) + r.ev.n_neighbors)
        return int(ctl[COUNTER])

    def finish(self) -> None:
        """Wait for the batch; the archive's size and unvisited count as the device left them."""
        r = self.resident
        r.ev.synchronize()
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
        """The batch's graph: its parameters up, a first draw, the iterations, what the host reads down."""
        r = self.resident
        ev, device, ctl = r.ev, r.device, self.ctl.device[0]
        gpu_filter = device.gpu_filter
        m, _, f, active = gpu_filter.params.device
        x, unvisited = r.params.device[0], r.out.device[0]
        for buffers in (gpu_filter.params, r.out, self.ctl):
            ev.upload(buffers)

        def settle(removed) -> None:  # the members removed and updated, solutions and all, the next draw
            X, slot, visited, x, surv, acc, _, capacity, free, counts, unvisited, m = r.append_args()
            ev.run(self._settle, (1,), (r.scan,), (removed, ev.F, X, slot, visited, x, surv, acc, gpu_filter.totals,
                                                    capacity, free, counts, unvisited, m, device.buffer, ctl, active, f))

        ev.run(self._draw, (1,), (r.scan,), (r.X, r.slot, r.visited, device.buffer, m, unvisited, ctl, active, x, f,
                                             gpu_filter.totals))
        for _ in range(iterations):
            ev.run(self._load, (1, 1), (LOAD_BLOCK,), (*ev.data, *ev.state_args, x, active))
            ev.enqueue_prepare()
            ev.enqueue_launch()
            gpu_filter.enqueue(ev.F, device.buffer, len(device.buffer), ev, then=settle, on_device=True)
        for buffers in (gpu_filter.params, r.out, self.ctl):
            ev.download(buffers)
