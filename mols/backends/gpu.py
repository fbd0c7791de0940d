"""GPU backend: the problem's CUDA kernel generates every neighbor from its thread id and evaluates it.

A neighborhood larger than `chunk_rows` (problems whose kernels take an id offset only) is evaluated
chunk by chunk into one chunk-sized F on the device: `evaluate` copies each chunk out into the whole
host F, and the device-side selection (gpu_select.py) reduces each chunk and combines their winners,
so that F never goes to the host and never exists whole.
"""

from __future__ import annotations

import numpy as np

from mols.backends.cpu import chunk_size
from mols.backends.cuda import (PackedBuffers, compile_kernel, device_array, gpu_name, import_cupy, kernel_source,
                                pinned_array)
from mols.errors import BackendError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

BLOCK = 128  # threads per block
CHUNK_ROWS = 1 << 25  # moves per launch at most (F of 128 MB for one int32 objective)


class GpuEvaluator:
    """Problem data go to the device once. `evaluate` replays one CUDA graph: copy the solution's
    state arrays in (one pinned copy), run the kernel, copy F out into a pinned host array."""

    backend = "gpu"

    def __init__(self, problem: Problem, nbh: Neighborhood, block: int = BLOCK, chunk_rows: int | None = None,
                 fused: bool = True, walk: bool = True):
        cupy = import_cupy()

        self.problem, self.nbh = problem, nbh
        self.fused = fused  # select with the problem's selection kernel where it has one (no F)
        self.walk = walk  # run tabu walks on the device where the problem has an apply kernel
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.chunk = chunk_size(problem, self.n_neighbors, chunk_rows, CHUNK_ROWS)
        self.firsts = range(0, self.n_neighbors, self.chunk)  # each launch's first move
        self.device = gpu_name()
        self.block = block
        self.defines = {**problem.cuda_defines(), "BLOCK": block}
        self.source = kernel_source(self.defines, nbh.cuda_source(), problem.cuda_file.read_text())
        self._kernel = compile_kernel(self.source, problem.kernel_name(nbh))
        self._data = tuple(cupy.asarray(a) for a in problem.data())
        self._state = PackedBuffers(problem.state_layout())
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self._uploaded = cupy.cuda.Event(disable_timing=True)
        self.what = f"the {nbh.name} neighborhood of {problem.instance_name} ({self.n_neighbors:,} neighbors)"
        self.F = device_array((self.chunk, problem.n_obj), problem.dtype, f"F for {self.what}")
        self._F_host = None  # the whole F in pinned host memory, and the graph filling it: on first evaluate()
        self._graph = None
        self._selection = None  # a DeviceSelection, made on first use
        self._walk = None  # a DeviceWalk, made on first use

    def _capture_round_trip(self):
        cupy = import_cupy()
        self._F_host = pinned_array((self.n_neighbors, self.problem.n_obj), self.F.dtype, f"F for {self.what}")
        self.stream.begin_capture()
        self._state.upload(self.stream)
        for first in self.firsts:
            rows = self.launch(first)
            cupy.cuda.runtime.memcpyAsync(
                self._F_host[first:].ctypes.data, self.F.data.ptr, rows * self.F.strides[0],
                cupy.cuda.runtime.memcpyDeviceToHost, self.stream.ptr,
            )
        return self.stream.end_capture()

    def launch(self, first: int = 0) -> int:
        """Run the kernel on the state already on the device (no transfer), for moves first ..
        first + rows - 1 into rows 0 .. rows - 1 of self.F; returns rows."""
        rows = min(self.chunk, self.n_neighbors - first)
        grid = (-(-rows * self.problem.threads_per_move // self.block),)
        if self.problem.chunkable:
            args = (*self._data, *self._state.device, self.F, np.int64(first + rows), np.int64(first))
        else:
            args = (*self._data, *self._state.device, self.F, np.int64(rows))
        with self.stream:
            self._kernel(grid, (self.block,), args)
        return rows

    def stage(self, x: np.ndarray) -> None:
        """Write x's state into the pinned buffer, once the previous upload has left it."""
        self._uploaded.synchronize()
        self.problem.fill_state(np.asarray(x), self._state.host)

    def evaluate_device(self, x: np.ndarray):
        """F stays on the device (self.F, overwritten by the next call) for a device-side reduction."""
        if self.chunk < self.n_neighbors:
            raise BackendError(f"{self.n_neighbors} neighbors are evaluated in chunks of {self.chunk}: the whole F "
                               "never stays on the device; use evaluate() or best_weighted()")
        self.stage(x)
        self._state.upload(self.stream)
        self._uploaded.record(self.stream)
        self.launch()
        return self.F

    def evaluate(self, x: np.ndarray) -> np.ndarray:
        """F on the host, in a pinned array that the next call overwrites."""
        if self._graph is None:
            self._graph = self._capture_round_trip()
        self.stage(x)
        self._graph.launch(self.stream)
        self.stream.synchronize()
        return self._F_host

    @property
    def selection(self):
        if self._selection is None:
            from mols.backends.gpu_select import DeviceSelection

            self._selection = DeviceSelection(self)
        return self._selection

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float):
        """Evaluate and select on the device (select.cu); only (id, score, F[id]) come back."""
        return self.selection(x, c, step, threshold)

    def device_walk(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int):
        """The tabu walk on the device (gpu_walk.py), or None where the problem has no apply kernel
        (or `walk` is off)."""
        if not self.walk or self.problem.apply_kernel(self.nbh) is None:
            return None
        if self._walk is None:
            from mols.backends.gpu_walk import DeviceWalk

            self._walk = DeviceWalk(self)
        return self._walk(x, c, threshold, steps, tenure)

    def forbid(self, idx: int, until: int) -> None:
        self.selection.forbid(idx, until)

    def allow_all(self) -> None:
        self.selection.allow_all()
