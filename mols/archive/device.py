"""A host Archive whose objective vectors are mirrored on the device, so that candidates evaluated
there are filtered there (gpu_filter.py) and only the accepted ones come back.

For a search, `filter_neighbors(x)` is one CUDA graph, captured once and replayed every iteration:
x's state up, the evaluation kernel, the filter against the members, their update in place, and the
result down. Python launches one graph and waits once, instead of launching a dozen kernels.
"""

from __future__ import annotations

import numpy as np

from mols.archive.gpu_filter import DeviceArchive, Filtered
from mols.archive.host import Archive
from mols.backends.cuda import import_cupy


class MirroredArchive(Archive):
    """Archive with the same contract and member order; F also lives on the device (device.F).
    With a GPU evaluator, filter_neighbors evaluates and filters a whole neighborhood in one graph."""

    def __init__(self, n_obj: int, n_var: int, dtype=np.int64, solution_dtype=np.int32, evaluator=None,
                 capacity: int = 1024):
        super().__init__(n_obj, n_var, dtype, solution_dtype)
        self.device = DeviceArchive(n_obj, dtype, capacity)
        self.evaluator = evaluator
        self.stream = evaluator.stream if evaluator is not None else None
        self._graph, self._graph_buffer = None, None  # the graph, and the device buffer it was captured for

    def clear(self) -> None:
        super().clear()
        self.device.clear()

    def add(self, F: np.ndarray, X: np.ndarray) -> np.ndarray:
        """As Archive.add, for candidates on the host."""
        result = self.filter(import_cupy().asarray(np.ascontiguousarray(F, dtype=self.F.dtype)))
        self.commit(result, np.asarray(X)[result.ids])
        return result.accepted(len(F))

    def filter(self, F_dev) -> Filtered:
        """Step 1, on the device: the candidates F_dev (N, k) accepted, and the members they remove;
        the device's copy of the members is updated already. Call commit next."""
        return self.device.add(F_dev, self.stream)

    def filter_neighbors(self, x: np.ndarray, f: np.ndarray | None = None) -> Filtered:
        """Step 1 for the whole neighborhood of x, evaluated on the device; with f, only the neighbors
        that dominate f are candidates. Call commit next."""
        ev, device = self.evaluator, self.device
        ev.stage(x)
        device.filter.set_params(device.size, f)
        if self._graph_buffer is not device.buffer:  # a buffer that grew gets a new graph
            self._graph = capture(ev, device, lambda: enqueue_neighborhood(ev, device))
            self._graph_buffer = device.buffer
        self._graph.launch(ev.stream)
        return device.settle(device.filter.collect(ev.F, device.size, ev.stream), ev.stream)

    def commit(self, result: Filtered, X_new: np.ndarray) -> None:
        """Step 2, on the host: the same update, with the accepted candidates' solutions X_new."""
        if len(result.ids):
            self.replace(~result.removed, result.F, X_new)


def capture(ev, device: DeviceArchive, enqueue):
    """A CUDA graph of what enqueue() puts on the evaluator's stream, for the device archive's buffers as
    they are (the filter's scratch is reserved first: nothing may be allocated while capturing)."""
    device.filter.reserve(ev.n_neighbors, len(device.buffer))
    ev.stream.begin_capture()
    enqueue()
    return ev.stream.end_capture()


def enqueue_neighborhood(ev, device: DeviceArchive, then=None) -> None:
    """On the evaluator's stream: the staged state up, the evaluation kernel, and the filter of its F
    against the device archive with the archive's update (then `then(removed)`), the result down."""
    ev._state.upload(ev.stream)
    ev.launch()
    device.filter.enqueue(ev.F, device.buffer, len(device.buffer), ev.stream, update=True, then=then)
