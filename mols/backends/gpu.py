"""GPU backend: the problem's CUDA kernel generates every neighbor from its thread id and evaluates it."""

from __future__ import annotations

import numpy as np

from mols.backends.cuda import PackedBuffers, compile_kernel, gpu_name, import_cupy, kernel_source
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

BLOCK = 128  # threads per block


class GpuEvaluator:
    """Problem data go to the device once. `evaluate` replays one CUDA graph: copy the solution's
    state arrays in (one pinned copy), run the kernel, copy F out into a pinned host array."""

    backend = "gpu"

    def __init__(self, problem: Problem, nbh: Neighborhood, block: int = BLOCK):
        cupy = import_cupy()
        import cupyx

        self.problem = problem
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.device = gpu_name()
        self.block = block
        defines = {**problem.cuda_defines(), "BLOCK": block}
        source = kernel_source(defines, nbh.cuda_source(), problem.cuda_file.read_text())
        self._kernel = compile_kernel(source, problem.cuda_kernel)
        self._data = tuple(cupy.asarray(a) for a in problem.data())
        self._state = PackedBuffers(problem.state_layout())
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self._uploaded = cupy.cuda.Event(disable_timing=True)
        self.F = cupy.empty((self.n_neighbors, problem.n_obj), dtype=problem.dtype)
        self._F_host = cupyx.empty_pinned(self.F.shape, dtype=self.F.dtype)
        self._graph = self._capture_round_trip()
        self._selection = None  # a DeviceSelection, made on first use

    def _capture_round_trip(self):
        cupy = import_cupy()
        self.stream.begin_capture()
        self._state.upload(self.stream)
        self.launch()
        cupy.cuda.runtime.memcpyAsync(
            self._F_host.ctypes.data, self.F.data.ptr, self.F.nbytes,
            cupy.cuda.runtime.memcpyDeviceToHost, self.stream.ptr,
        )
        return self.stream.end_capture()

    def launch(self) -> None:
        """Run the kernel on the state already on the device (no transfer), into self.F."""
        grid = (-(-self.n_neighbors // self.block),)
        args = (*self._data, *self._state.device, self.F, np.int64(self.n_neighbors))
        with self.stream:
            self._kernel(grid, (self.block,), args)

    def stage(self, x: np.ndarray) -> None:
        """Write x's state into the pinned buffer, once the previous upload has left it."""
        self._uploaded.synchronize()
        self.problem.fill_state(np.asarray(x), self._state.host)

    def evaluate_device(self, x: np.ndarray):
        """F stays on the device (self.F, overwritten by the next call) for a device-side reduction."""
        self.stage(x)
        self._state.upload(self.stream)
        self._uploaded.record(self.stream)
        self.launch()
        return self.F

    def evaluate(self, x: np.ndarray) -> np.ndarray:
        """F on the host, in a pinned array that the next call overwrites."""
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

    def forbid(self, idx: int, until: int) -> None:
        self.selection.forbid(idx, until)

    def allow_all(self) -> None:
        self.selection.allow_all()
