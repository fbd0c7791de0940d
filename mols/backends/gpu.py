"""GPU backend: the problem's CUDA kernel generates every neighbor from its thread id and evaluates it; large
neighborhoods go chunk by chunk, and several searches may share the launches as lanes. The evaluator's public
pipeline (stage, enqueue_*, capture) and the study variants: docs/internals.md."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.backends.base import bounds_one_by_one, describe, fill_state, state_layout
from mols.backends.cpu import chunk_size
from mols.backends.cuda import (
    PackedBuffers,
    compile_kernel,
    compile_module,
    device_array,
    gpu_name,
    import_cupy,
    kernel_source,
    packed_nbytes,
    pinned_array,
)
from mols.algorithms.tabu.select import TABU_DTYPE, choose_on_host
from mols.backends.spec import MEMORIES, BackendSpec
from mols.errors import BackendError, MolsError
from mols.memory import host_array
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

GPU_SPEC = BackendSpec("gpu")  # the default spec
LANE_CUH = Path(__file__).with_name("lane.cuh")
TECHNIQUES_CUH = Path(__file__).with_name("techniques.cuh")
BLOCK = 128  # threads per block
HOST_MOVES = ("swap", "insertion", "hamming1", "hamming2", "hamming3")  # whose Move is NBH_ARITY ints (techniques.cuh)
MAX_LANES = 65535  # searches sharing a launch at most: grid.y is the search
CHUNK_ROWS = 1 << 25  # moves per launch at most (F of 128 MB for one int32 objective)


@dataclass(frozen=True)
class Launch:
    """Threads per block of the evaluation kernels (a multiple of the warp) and of the selection's (a power of
    two), threads per move where the problem lets them vary (Problem.fixed_move_threads; None: the problem's own), and the
    selection's blocks per chunk at most (the grid: each block strides over the rest)."""

    block: int = BLOCK
    sel_block: int = 256  # gpu_select.py's SEL_BLOCK
    move_threads: int | None = None
    grid: int = 1024

    @property
    def text(self) -> str:
        return f"block {self.block}, selection block {self.sel_block}" + (
            f", {self.move_threads} threads per move" if self.move_threads else "") + (
            f", selection grid {self.grid} at most" if self.grid != DEFAULT_GRID else "")


DEFAULT_GRID = Launch.grid


DEFAULT_LAUNCH = Launch()


def launch_failures() -> tuple[type[Exception], ...]:
    """What CuPy raises where a launch cannot run: compilation, launch (threads, registers, shared memory), memory."""
    cupy = import_cupy()
    return (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError, cupy.cuda.compiler.CompileException,
            cupy.cuda.memory.OutOfMemoryError)


def problem_defines(problem: Problem, nbh: Neighborhood, block: int = BLOCK) -> dict[str, int | str]:
    """The #defines the problem's kernels for `nbh` compile with."""
    return {**problem.cuda_defines(), "BLOCK": block, "STATE_BYTES": packed_nbytes(state_layout(problem, nbh))}


def variant_defines(problem: Problem, nbh: Neighborhood, spec: BackendSpec) -> dict[str, int]:
    """The #defines of the spec's generation and memory variants (techniques.cuh); none for the defaults.
    MolsError naming the option where the problem or neighborhood has no such variant."""
    defines = {}
    if spec.generation == "host":
        if nbh.name not in HOST_MOVES:
            raise MolsError(f"--generation host: the {nbh.name} neighborhood's moves are made on the device only; "
                            f"host generation takes {', '.join(HOST_MOVES)}")
        defines["HOST_MOVES"] = 1
    if spec.memory != "default":
        refused = spec.memory == "shared" and problem.shared_memory_refused(nbh)
        if refused:
            raise MolsError(f"--memory shared: {refused}; choose {', '.join(m for m in MEMORIES if m != 'shared')}")
        defines["MEMORY"] = MEMORIES.index(spec.memory) - 1  # plain 0, readonly 1, shared 2
    return defines


def problem_source(defines: dict[str, int | str], problem: Problem, nbh: Neighborhood, *between: str) -> str:
    """The problem's CUDA source for `nbh`, after lane.cuh, the neighborhood's header, techniques.cuh where
    `defines` ask for a variant, and the sources `between`."""
    variants = TECHNIQUES_CUH.read_text() if "HOST_MOVES" in defines or "MEMORY" in defines else ""
    return kernel_source(defines, LANE_CUH.read_text(), nbh.cuda_source(), *([variants] if variants else []),
                         *between, problem.cuda_source(nbh))


def with_move_threads(problem: Problem, threads: int | None) -> Problem:
    """The problem with `threads` threads per move (a shallow copy), or itself where threads is None."""
    if threads is None or threads == problem.threads_per_move:
        return problem
    tuned = copy.copy(problem)
    tuned.fixed_move_threads = threads
    return tuned


def lanes_refused(problem: Problem, what: str, chunked: bool, lanes: int) -> str | None:
    """Why `lanes` searches cannot share the launches over `what` (docs/internals.md), or None."""
    if lanes > MAX_LANES:
        return f"{lanes} searches cannot share a launch: at most {MAX_LANES} (a CUDA grid's y size)"
    if not problem.lane_kernels:
        return f"the {problem.name} problem's kernels serve one search at a time (Problem.lane_kernels)"
    if chunked:
        return f"{what} is evaluated in chunks: searches share a launch only where each neighborhood is evaluated whole"
    return None


class GpuEvaluator:
    """Problem data go to the device once. `evaluate` replays one CUDA graph: copy the solution's
    state arrays in (one pinned copy), run the kernel, copy F out into a pinned host array."""

    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec = GPU_SPEC,
                 launch: Launch = DEFAULT_LAUNCH, lanes: int = 1):
        cupy = import_cupy()
        self.nbh, self.spec, self.label, self.lanes = nbh, spec, spec.label, lanes
        self.n_neighbors = nbh.n_neighbors(problem.n)
        self.chunk = chunk_size(problem, self.n_neighbors, spec.chunk_rows, CHUNK_ROWS)
        self.firsts = range(0, self.n_neighbors, self.chunk)  # each launch's first move
        self.what = describe(problem, nbh, self.n_neighbors)
        layout = state_layout(problem, nbh)
        refused = lanes > 1 and lanes_refused(problem, self.what, self.chunk < self.n_neighbors, lanes)
        if refused:
            raise BackendError(refused)
        self.device = gpu_name()
        self._moves = self._host_moves() if spec.generation == "host" else None
        self._compile(problem, launch)
        self.data = tuple(cupy.asarray(a) for a in problem.data())
        self.state = PackedBuffers(layout * lanes)
        self.state_args = self.state.device[:len(layout)]  # lane 0's arrays: the kernels' arguments
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self._uploaded = cupy.cuda.Event(disable_timing=True)
        self._capturing = False  # inside capture(): no event is recorded (a graph's callers wait for it)
        self.F = device_array((lanes * self.chunk, problem.n_obj), problem.dtype, f"F for {self.what}")
        self._F_host = None  # the whole F in pinned host memory, and the graph filling it: on first evaluate()
        self._graph = None
        self._selection = None  # a DeviceSelection, made on first use
        self._walk = None  # a DeviceWalk, made on first use
        self._lane_walks = {}  # lanes -> a DeviceWalk over an evaluator of that many lanes (lane_walk)
        self._forbidden = host_array((self.n_neighbors,), TABU_DTYPE, f"the tabu memory of {self.what}", fill=0) \
            if spec.selection == "copy" else None

    def _compile(self, problem: Problem, launch: Launch) -> None:
        """The kernels of `launch` for the problem (with the launch's threads per move)."""
        nbh, self.launch, self.block = self.nbh, launch, launch.block
        self.problem = problem = with_move_threads(problem, launch.move_threads)
        self.defines = {**problem_defines(problem, nbh, launch.block), **variant_defines(problem, nbh, self.spec)}
        self.source = problem_source(self.defines, problem, nbh)
        self._kernel = compile_kernel(self.source, problem.kernel_name(nbh, self.lanes))
        self.move_threads = problem.move_threads(nbh)
        prepare = problem.prepare_kernel(nbh)
        self._prepare = prepare and (compile_kernel(self.source, prepare[0]), (-(-prepare[1] // launch.block),))
        self._move_pointers = []  # where the modules' nbh_host_moves lie (--generation host)
        self.point_moves(compile_module(self.source))

    def with_launch(self, launch: Launch) -> GpuEvaluator:
        """An evaluator of the same problem under another launch (threads per move None: this one's) that shares
        this one's data, state, F and stream (the tuning pass times its candidates so, tuning.py); it has its own
        kernels, selection and graphs."""
        variant = copy.copy(self)
        variant._compile(self.problem, launch)
        variant._graph, variant._selection, variant._walk, variant._lane_walks = None, None, None, {}
        return variant

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
            self._uploaded.record(self.stream)
        self.enqueue_prepare()

    def enqueue_transfer(self) -> None:
        """The copies of enqueue_upload: the staged state, and with --generation host the move table, and each
        module's nbh_host_moves pointed at it (techniques.cuh)."""
        self.state.upload(self.stream)
        if self._moves is None:
            return
        runtime = import_cupy().cuda.runtime
        self._moves.upload(self.stream)
        pointer = self._moves.host[1].ctypes.data  # the table's device address, in pinned memory
        for target in self._move_pointers:
            runtime.memcpyAsync(target.ptr, pointer, 8, runtime.memcpyHostToDevice, self.stream.ptr)

    def enqueue_prepare(self) -> None:
        """The problem's prepare kernel (Problem.prepare_kernel), if it has one, on the state on the device."""
        if self._prepare:
            kernel, grid = self._prepare
            with self.stream:
                kernel(grid, (self.block,), (*self.data, *self.state_args))

    def enqueue_launch(self, first: int = 0) -> int:
        """The kernel on the state already on the device (no transfer), for moves first .. first + rows - 1
        into rows 0 .. rows - 1 of F (of each lane's rows); returns rows."""
        rows = min(self.chunk, self.n_neighbors - first)
        grid = (-(-rows * self.move_threads // self.block), self.lanes)
        if self.problem.chunkable:
            args = (*self.data, *self.state_args, self.F, np.int64(first + rows), np.int64(first))
        else:
            args = (*self.data, *self.state_args, self.F, np.int64(rows))
        with self.stream:
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
                               "never stays on the device; use evaluate() or best_weighted()")

    def capture(self, enqueue: Callable[[], None]):
        """A CUDA graph of what enqueue() puts on the stream (nothing may allocate meanwhile)."""
        self._capturing = True
        self.stream.begin_capture()
        try:
            enqueue()
        finally:
            graph = self.stream.end_capture()
            self._capturing = False
        return graph

    def evaluate_device(self, x: np.ndarray, key: np.ndarray | None = None):
        """F stays on the device (self.F, overwritten by the next call) for a device-side reduction."""
        self.whole_F()
        self.stage(x, key)
        self.enqueue_evaluation()
        return self.F

    def evaluate(self, x: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        """F on the host, in a pinned array that the next call overwrites."""
        if self._graph is None:
            self.host_F()
            self._graph = self.capture(self._enqueue_round_trip)
        self.stage(x, key)
        self._graph.launch(self.stream)
        self.stream.synchronize()
        return self._F_host

    def host_F(self) -> np.ndarray:
        """The whole F in pinned host memory (made on first use), which evaluate() fills."""
        if self._F_host is None:
            self._F_host = pinned_array((self.n_neighbors, self.problem.n_obj), self.F.dtype, f"F for {self.what}")
        return self._F_host

    def _enqueue_round_trip(self) -> None:
        self.enqueue_upload()
        for first in self.firsts:
            self.enqueue_download(first, self.enqueue_launch(first))

    def enqueue_download(self, first: int, rows: int) -> None:
        """Rows 0 .. rows - 1 of F on the device into rows first .. of host_F(), on the stream."""
        runtime = import_cupy().cuda.runtime
        runtime.memcpyAsync(self.host_F()[first:].ctypes.data, self.F.data.ptr, rows * self.F.strides[0],
                            runtime.memcpyDeviceToHost, self.stream.ptr)

    def iteration_graph(self):
        """The CUDA graph that an iteration replays, once one has run: the device selection's round trip
        (best_weighted), or F's (evaluate, --selection copy)."""
        return self._graph if self._forbidden is not None else self.selection.graph

    @property
    def selection(self):
        if self._selection is None:
            from mols.algorithms.tabu.gpu_select import DeviceSelection

            self._selection = DeviceSelection(self)
        return self._selection

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """Evaluator.neighborhood_bounds: in one launch on the lanes of lane_walk(len(xs))'s evaluator where
        there is one (lane_bounds), else one evaluation each."""
        walker = self.lane_walk(len(xs))
        return bounds_one_by_one(self, xs, keys) if walker is None else walker.ev.lane_bounds(xs, keys)

    def lane_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """neighborhood_bounds of up to `lanes` solutions, xs[b] in lane b: one upload, one launch, each lane's
        column bounds reduced on the device, and only those come back."""
        for lane, (x, key) in enumerate(zip(xs, keys)):
            self.stage(x, key, lane)
        self.enqueue_evaluation()
        with self.stream:
            F = self.F.reshape(self.lanes, self.chunk, -1)[:len(xs), :self.n_neighbors]
            bounds = import_cupy().stack([F.min(axis=1), F.max(axis=1)]).astype(np.float64).get(stream=self.stream)
        self.stream.synchronize()
        return bounds[0], bounds[1]

    def best_weighted(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None = None):
        """Evaluate and select on the device (select.cu); only (id, score, F[id]) come back. --selection copy:
        the whole F comes back and the host chooses (select.py)."""
        if self._forbidden is not None:
            return choose_on_host(self.evaluate(x, key), c, self._forbidden, step, threshold)
        return self.selection(x, c, step, threshold, key)

    def device_walk(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int,
                    keys: np.ndarray | None = None):
        """The tabu walk on the device (gpu_walk.py), or None where the problem has no apply kernel (or
        the spec turns device walks off)."""
        if not self.walks_on_device:
            return None
        if self._walk is None:
            from mols.algorithms.tabu.gpu_walk import DeviceWalk

            self._walk = DeviceWalk(self, self.spec.walk_batch)
        return self._walk(x, c, threshold, steps, tenure, keys)

    def shares_launches(self, lanes: int = 2) -> bool:
        """Whether `lanes` tabu walks can walk side by side on the device: the spec lets them (lanes, device
        walks), the problem has an apply kernel, and lanes_refused finds nothing."""
        return (self.spec.lanes and self.walks_on_device
                and not lanes_refused(self.problem, self.what, self.chunk < self.n_neighbors, lanes))

    @property
    def walks_on_device(self) -> bool:
        """Whether tabu walks may run on the device: the spec lets them (device walks, the default generation and
        selection: the study variants are of the host-driven loop) and the problem has an apply kernel."""
        spec = self.spec
        return (spec.device_walk and spec.generation == "device" and spec.selection == "device"
                and self.problem.apply_kernel(self.nbh) is not None)

    def lane_walk(self, lanes: int):
        """A DeviceWalk over `lanes` walks sharing each launch (an evaluator of that many lanes, made once), or
        None where one walk at a time is all there is (fewer than 2 lanes, or not shares_launches)."""
        if lanes < 2 or not self.shares_launches(lanes):
            return None
        if lanes not in self._lane_walks:
            from mols.algorithms.tabu.gpu_walk import DeviceWalk

            ev = GpuEvaluator(self.problem, self.nbh, self.spec, self.launch, lanes)
            self._lane_walks[lanes] = DeviceWalk(ev, self.spec.walk_batch)
        return self._lane_walks[lanes]

    def forbid(self, idx: int, until: int) -> None:
        if self._forbidden is not None:
            self._forbidden[idx] = until
        else:
            self.selection.forbid(idx, until)

    def allow_all(self) -> None:
        if self._forbidden is not None:
            self._forbidden[:] = 0
        else:
            self.selection.allow_all()
