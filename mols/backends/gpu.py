"""GPU backend: the problem's CUDA kernel generates every neighbor from its thread id and evaluates it; large
neighborhoods go chunk by chunk, and several searches may share the launches as lanes. The evaluator's public
pipeline (stage, enqueue_*, its DeviceQueue's verbs) and the study variants: docs/internals.md."""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from mols.backends.base import Companions, bounds_one_by_one, describe, fill_state, state_layout
from mols.backends.cpu import chunk_size
from mols.backends.cuda import (
    DeviceQueue,
    PackedBuffers,
    compile_kernel,
    compile_module,
    device_array,
    device_copy,
    gpu_name,
    import_cupy,
    pinned_array,
)
from mols.backends.launch import (
    DEFAULT_LAUNCH,
    Launch,
    lanes_refused,
    problem_defines,
    problem_source,
    variant_defines,
    with_move_threads,
)
from mols.backends.spec import BackendSpec
from mols.errors import BackendError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

GPU_SPEC = BackendSpec("gpu")  # the default spec
CHUNK_ROWS = 1 << 25  # moves per launch at most (F of 128 MB for one int32 objective)


class GpuEvaluator(DeviceQueue, Companions):
    """Problem data go to the device once. `evaluate` replays one CUDA graph: copy the solution's
    state arrays in (one pinned copy), run the kernel, copy F out into a pinned host array. Its users queue
    their own work after its pipeline's through the DeviceQueue verbs. A share of a neighborhood split over several
    devices (split.py) evaluates only the neighbor ids `ids` (F's rows keep their ids: row id - first of a launch)
    and may share another share's pinned host buffers (`host`): the state staged once goes up to every device."""

    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec = GPU_SPEC,
                 launch: Launch = DEFAULT_LAUNCH, lanes: int = 1, data: tuple | None = None,
                 ids: range | None = None, host: GpuEvaluator | None = None):
        cupy = import_cupy()
        super().__init__()
        self.nbh, self.spec, self.label, self.lanes = nbh, spec, spec.label, lanes
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.ids = range(self.n_neighbors) if ids is None else ids
        self.chunk = chunk_size(problem, self.n_neighbors, spec.chunk_rows, CHUNK_ROWS)
        self.firsts = range(self.ids.start, self.ids.stop, self.chunk)  # each launch's first move
        self.what = describe(problem, nbh, self.n_neighbors)
        layout = state_layout(problem, nbh)
        refused = lanes > 1 and lanes_refused(problem, self.what, self.chunk < self.n_neighbors, lanes)
        if refused:
            raise BackendError(refused)
        self.device = gpu_name()
        self._moves = self._host_moves() if spec.generation == "host" else None
        self._compile(problem, launch)
        if data is None:  # a lanes evaluator shares its maker's
            data = tuple(device_copy(a, f"{self.what}: its data ({a.nbytes:,} bytes)") for a in problem.kernels.data())
        self.data = data
        self.state = PackedBuffers(layout * lanes, None if host is None else host.state)
        self._host = host  # whose pinned F this one fills (host_F)
        self.state_args = self.state.device[:len(layout)]  # lane 0's arrays: the kernels' arguments
        self._uploaded = cupy.cuda.Event(disable_timing=True)
        self._capturing = False  # inside capture(): no event is recorded (a graph's callers wait for it)
        self.F = device_array((lanes * self.chunk, problem.n_obj), problem.dtype, f"F for {self.what}")
        self._F_host = None  # the whole F in pinned host memory, and the graph filling it: on first evaluate()
        self._graph = None
        self._lanes_evaluators = {}  # lanes -> an evaluator of that many lanes (lanes_evaluator)
        self._companions = {}  # key -> what an algorithm made from this evaluator (companion)
        self.tuner = None  # the LaunchTuner that the search's first iterations run, while it tunes (tuning.py)

    def _compile(self, problem: Problem, launch: Launch) -> None:
        """The kernels of `launch` for the problem (with the launch's threads per move)."""
        nbh, self.launch, self.block = self.nbh, launch, launch.block
        self.problem = problem = with_move_threads(problem, launch.move_threads)
        self.defines = {**problem_defines(problem, nbh, launch.block), **variant_defines(problem, nbh, self.spec)}
        self.source = problem_source(self.defines, problem, nbh)
        self._kernel = compile_kernel(self.source, problem.kernels.kernel_name(nbh, self.lanes))
        self.move_threads = problem.kernels.move_threads(nbh)
        prepare = problem.kernels.prepare_kernels.get(nbh.name)
        self._prepare = prepare and (compile_kernel(self.source, prepare[0]), (-(-prepare[1] // launch.block),))
        self._move_pointers = []  # where the modules' nbh_host_moves lie (--generation host)
        self.point_moves(compile_module(self.source))

    def with_launch(self, launch: Launch) -> GpuEvaluator:
        """An evaluator of the same problem under another launch (threads per move None: this one's) that shares
        this one's data, state, F and queue (the tuner's candidates, tuning.py); it has its own kernels, graphs and
        companions."""
        variant = copy.copy(self)
        variant.tuner = None
        variant.relaunch(launch)
        return variant

    def relaunch(self, launch: Launch) -> None:
        """This evaluator under another launch from now on (the tuned one, tuning.py): its kernels compiled for it,
        its graphs, evaluators of lanes and companions made again on first use (what an algorithm kept in them, a
        tabu memory, is its to carry over)."""
        self._compile(self.problem, launch)
        self._graph, self._lanes_evaluators, self._companions = None, {}, {}

    def lanes_evaluator(self, lanes: int) -> GpuEvaluator:
        """An evaluator of the same problem, spec and launch for `lanes` searches sharing each launch, made once
        per count (BackendError where lanes_refused says why not)."""
        if lanes not in self._lanes_evaluators:
            self._lanes_evaluators[lanes] = GpuEvaluator(self.problem, self.nbh, self.spec, self.launch, lanes,
                                                         self.data)
        return self._lanes_evaluators[lanes]

    def _host_moves(self):
        """--generation host: the move table (pinned and on the device) and the ids it is built from each time;
        each upload points the modules' nbh_host_moves at the table (point_moves)."""
        self._move_ids = np.arange(self.n_neighbors, dtype=np.int64)
        table = PackedBuffers([((self.n_neighbors, self.nbh.arity), np.dtype(np.int32)), ((1,), np.dtype(np.uint64))])
        table.host[1][0] = table.device[0].data.ptr
        return table

    def point_moves(self, module) -> None:
        """A module compiled from this evaluator's source and others (gpu_select.py) reads its moves."""
        if self._moves is not None:
            self._move_pointers.append(module.get_global("nbh_host_moves"))

    def stage(self, x: np.ndarray, key: np.ndarray | None = None, lane: int = 0) -> None:
        """Write x's state (and the draw key, for a sampled neighborhood) into the lane's part of the pinned
        buffer, once the previous upload has left it."""
        self._uploaded.synchronize()
        arrays = len(self.state_args)
        fill_state(self.problem, self.nbh, x, key, self.state.host[lane * arrays:(lane + 1) * arrays])
        if self._moves is not None:  # --generation host: every move built again
            self._moves.host[0][:] = self.nbh.moves(self._move_ids, self.problem.n)

    def enqueue_upload(self) -> None:
        """The staged state to the device, on the stream. Outside a graph, an event marks when the pinned
        buffer is free again (stage waits for it); a graph's callers wait for the whole graph."""
        self.enqueue_transfer()
        if not self._capturing:
            self._uploaded.record(self._stream)
        self.enqueue_prepare()

    def enqueue_transfer(self) -> None:
        """The copies of enqueue_upload: the staged state, and with --generation host the move table, and each
        module's nbh_host_moves pointed at it (techniques.cuh)."""
        self.state.upload(self._stream)
        if self._moves is None:
            return
        self._moves.upload(self._stream)
        pointer = self._moves.host[1].ctypes.data  # the table's device address, in pinned memory
        for target in self._move_pointers:
            self.copy(target.ptr, pointer, 8, "up")

    def enqueue_prepare(self) -> None:
        """The problem's prepare kernel (KernelSet.prepare_kernels), if it has one, on the state on the device."""
        if self._prepare:
            kernel, grid = self._prepare
            with self._stream:
                kernel(grid, (self.block,), (*self.data, *self.state_args))

    def enqueue_launch(self, first: int = 0) -> int:
        """The kernel on the state already on the device (no transfer), for moves first .. first + rows - 1
        into rows 0 .. rows - 1 of F (of each lane's rows); returns rows."""
        rows = min(self.chunk, self.ids.stop - first)
        grid = (-(-rows * self.move_threads // self.block), self.lanes)
        if self.problem.kernels.chunkable:
            args = (*self.data, *self.state_args, self.F, np.int64(first + rows), np.int64(first))
        else:
            args = (*self.data, *self.state_args, self.F, np.int64(rows))
        with self._stream:
            self._kernel(grid, (self.block,), args)
        return rows

    def enqueue_evaluation(self) -> None:
        """The staged state up and the whole neighborhood evaluated into F (one chunk: check whole_F)."""
        self.whole_F()
        self.enqueue_upload()
        self.enqueue_launch()

    def whole_F(self) -> None:
        """BackendError unless the whole neighborhood fits in F at once."""
        if self.chunk < self.n_neighbors:
            raise BackendError(f"{self.n_neighbors} neighbors are evaluated in chunks of {self.chunk}: the whole F "
                               "never stays on the device; use evaluate(), which goes chunk by chunk")

    def capture(self, enqueue: Callable[[], None]):
        """A CUDA graph of what enqueue() queues (nothing may allocate meanwhile); enqueue_upload records no
        event inside it."""
        self._capturing = True
        try:
            return super().capture(enqueue)
        finally:
            self._capturing = False

    def evaluate_device(self, x: np.ndarray, key: np.ndarray | None = None):
        """F stays on the device (self.F, overwritten by the next call) for a device-side reduction."""
        self.whole_F()
        self.stage(x, key)
        self.enqueue_evaluation()
        return self.F

    def evaluate(self, x: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        """F on the host, in a pinned array that the next call overwrites."""
        graph = self.round_trip()
        self.stage(x, key)
        graph.launch(self._stream)
        self._stream.synchronize()
        return self._F_host

    def round_trip(self):
        """The CUDA graph of evaluate (the staged state up, the evaluator's ids evaluated into their rows of host_F),
        made on first use."""
        if self._graph is None:
            self.host_F()
            self._graph = self.capture(self._enqueue_round_trip)
        return self._graph

    def host_F(self) -> np.ndarray:
        """The whole F in pinned host memory (made on first use; `host`'s where it shares one), which evaluate()
        fills."""
        if self._F_host is None and self._host is not None:
            self._F_host = self._host.host_F()
        if self._F_host is None:
            self._F_host = pinned_array((self.n_neighbors, self.problem.n_obj), self.F.dtype, f"F for {self.what}")
        return self._F_host

    def _enqueue_round_trip(self) -> None:
        self.enqueue_upload()
        for first in self.firsts:
            self.enqueue_download(first, self.enqueue_launch(first))

    def enqueue_download(self, first: int, rows: int) -> None:
        """Rows 0 .. rows - 1 of F on the device into rows first .. of host_F(), on the stream."""
        self.copy(self.host_F()[first:].ctypes.data, self.F.data.ptr, rows * self.F.strides[0], "down")

    @property
    def evaluation_graph(self):
        """The CUDA graph that evaluate() replays (state up, F evaluated and down), once evaluate has run."""
        return self._graph

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """Evaluator.neighborhood_bounds: on an evaluator of lanes, in one launch (lane_bounds: up to `lanes`
        solutions); else one evaluation each."""
        return self.lane_bounds(xs, keys) if self.lanes > 1 else bounds_one_by_one(self, xs, keys)

    def lane_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """neighborhood_bounds of up to `lanes` solutions, xs[b] in lane b: one upload, one launch, each lane's
        column bounds reduced on the device, and only those come back."""
        for lane, (x, key) in enumerate(zip(xs, keys)):
            self.stage(x, key, lane)
        self.enqueue_evaluation()
        with self._stream:
            F = self.F.reshape(self.lanes, self.chunk, -1)[:len(xs), :self.n_neighbors]
            bounds = import_cupy().stack([F.min(axis=1), F.max(axis=1)]).astype(np.float64).get(stream=self._stream)
        self._stream.synchronize()
        return bounds[0], bounds[1]
