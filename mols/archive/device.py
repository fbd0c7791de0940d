"""A Pareto archive's objective vectors kept on the device: filtered there by the GPU filter
(gpu_filter.py), updated in place, in the host Archive's member order."""

from __future__ import annotations

import numpy as np

from mols.archive.gpu_filter import CHUNK, ROWS_BACK, Filtered, GpuFilter
from mols.backends.cuda import DeviceQueue, import_cupy


class DeviceArchive:
    """Members' objective vectors, kept on the device between batches in the host Archive's order:
    the members that stay, then the accepted candidates. The device updates them in place; when the
    accepted do not fit, the host doubles the capacity and appends them."""

    def __init__(self, n_obj: int, dtype, capacity: int = 1024, chunk: int = CHUNK, rows_back: int = ROWS_BACK):
        self.gpu_filter = GpuFilter(n_obj, dtype, chunk, rows_back)
        self.buffer = import_cupy().empty((capacity, n_obj), dtype=dtype)  # a new array when it grows
        self.size = 0

    def __len__(self) -> int:
        return self.size

    @property
    def F(self):
        """(size, k) on the device: a view that the next update may overwrite."""
        return self.buffer[:self.size]

    def clear(self) -> None:
        self.size = 0

    def add(self, F, queue: DeviceQueue | None = None) -> Filtered:
        """Filter candidates F (N, k) on the device against the members, then update the members, on `queue`
        (None: the current stream)."""
        if len(F) == 0:
            return Filtered.nothing(self.gpu_filter.n_obj, self.gpu_filter.dtype, self.size)
        queue = DeviceQueue.current() if queue is None else queue
        self.gpu_filter.set_params(self.size)
        self.enqueue_offer(self.gpu_filter.checked(F), queue)
        return self.settle(self.gpu_filter.collect(F, self.size, queue), queue)

    def enqueue_offer(self, F, queue: DeviceQueue, then=None) -> None:
        """On `queue`, no wait: candidates F (N, k) filtered against the members and the members
        updated in place, then `then(removed)`; collect the result with `settle(gpu_filter.collect(...))`.
        The filter's parameters (set_params) must be set before; a graph may capture this."""
        self.gpu_filter.enqueue(F, self.buffer, len(self.buffer), queue, update=True, then=then)

    def capture(self, ev, enqueue):
        """A graph of what enqueue() puts on the GPU evaluator's queue, for the buffers as they are: the
        filter's scratch for a whole neighborhood is reserved first (nothing may allocate while capturing)."""
        self.gpu_filter.reserve(ev.n_neighbors, len(self.buffer))
        return ev.capture(enqueue)

    def settle(self, result: Filtered, queue: DeviceQueue) -> Filtered:
        """After an update on the device: the new size, and the accepted appended here if they did not fit."""
        kept = self.size - int(result.removed.sum())
        if kept + len(result.ids) > len(self.buffer):
            self.size = kept
            self.reserve(kept + len(result.ids), queue)
            queue.set(self.buffer[kept:kept + len(result.ids)], np.ascontiguousarray(result.F, dtype=self.buffer.dtype))
        self.size = kept + len(result.ids)
        return result

    def hold(self, F: np.ndarray, queue: DeviceQueue) -> None:
        """Exactly the members' vectors F (m, k), from the host, in their order (a checkpoint's start restored)."""
        self.size = 0
        self.reserve(len(F), queue)
        if len(F):
            queue.set(self.buffer[:len(F)], np.ascontiguousarray(F, dtype=self.buffer.dtype))
        self.size = len(F)

    def reserve(self, rows: int, queue: DeviceQueue) -> None:
        """Room for `rows` members (the capacity doubled until it fits), the first `size` copied over."""
        if rows <= len(self.buffer):
            return
        cupy = import_cupy()
        with queue.queued():
            grown = cupy.empty((_doubled(len(self.buffer), rows), self.gpu_filter.n_obj), dtype=self.buffer.dtype)
            grown[:self.size] = self.buffer[:self.size]
        self.buffer = grown


def _doubled(capacity: int, size: int) -> int:
    capacity = max(capacity, 1)
    while capacity < size:
        capacity *= 2
    return capacity
