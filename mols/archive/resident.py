"""A start's archive kept whole on the device (vectors, solutions, visited flags), for Pareto local search on the
GPU backend: the host does no archiving while a start runs. Needs moves as runs of positions (`nbh_segments`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.archive.device import DeviceArchive
from mols.archive.gpu_filter import FILTER_CU, Filtered
from mols.archive.host import weakly_dominated
from mols.backends.cuda import C_TYPES, PackedBuffers, compile_module, import_cupy, kernel_source
from mols.neighborhoods.draws import DRAWS_CUH

RESIDENT_CU = Path(__file__).with_name("resident.cu")
SCAN = 512  # threads of every kernel; members go through them in tiles (PLS ran faster with 512 than 1024 or 256)


class ResidentArchive:
    def __init__(self, evaluator, nbh, capacity: int = 1024, scan: int = SCAN):
        cupy = import_cupy()
        problem, self.ev = evaluator.problem, evaluator
        self.n_var = problem.n
        self.device = DeviceArchive(problem.n_obj, problem.dtype, capacity)
        self.scan = scan
        defines = {"N_OBJ": problem.n_obj, "FVAL": C_TYPES[np.dtype(problem.dtype)], "N_VARS": problem.n, "SCAN": scan}
        self.module = compile_module(kernel_source(defines, nbh.cuda_source(), DRAWS_CUH.read_text(),
                                                   FILTER_CU.read_text(), RESIDENT_CU.read_text()))
        self._update_solutions, self._append, self._pick = (
            self.module.get_function(name) for name in ("update_solutions", "append_only", "pick_member"))
        self.params = PackedBuffers([((problem.n,), np.int32), ((1,), np.int64), ((1,), np.int64)])  # x, r, size
        self.out = PackedBuffers([((1,), np.int64), ((problem.n,), np.int32), ((problem.n_obj,), problem.dtype)])
        self._counts = cupy.empty(2, dtype=cupy.int64)  # members kept, free pool rows
        self._buffers(capacity)
        self.unvisited = 0
        self._pending = False  # an explore launched and not settled yet
        self.device_iterations = None  # a DeviceIterations (algorithms/pls/device.py), where PLS runs its iterations there

    def _buffers(self, capacity: int) -> None:
        """Pool, slots, flags and free stack for `capacity` members; the graphs are captured again."""
        cupy = import_cupy()
        self.X = cupy.empty((capacity, self.n_var), dtype=cupy.int32)
        self.slot = cupy.empty(capacity, dtype=cupy.int64)
        self.visited = cupy.empty(capacity, dtype=cupy.uint8)  # nothing on another queue: all is on the evaluator's
        self.free = cupy.empty(capacity, dtype=cupy.int64)
        self._graphs = None

    def __len__(self) -> int:
        return self.device.size

    def clear(self) -> None:
        self.device.clear()
        self.unvisited = 0

    def start(self, X: np.ndarray, F: np.ndarray) -> None:
        """The m solutions X (m, n) with vectors F (m, k), mutually non-dominated, as the members, unvisited:
        what a start's archive holds first (a random solution alone, or an initial front)."""
        self.hold(F, X, np.zeros(len(F), dtype=bool))

    def hold(self, F: np.ndarray, X: np.ndarray, visited: np.ndarray) -> None:
        """Exactly these members (mutually non-dominated), in this order, from the host: vectors F (m, k),
        solutions X (m, n) and visited flags (m,) (as Archive.hold; held() gives them)."""
        cupy = import_cupy()
        m, ev = len(F), self.ev
        self.device.hold(F, ev)
        if len(self.device.buffer) > len(self.slot):
            self._buffers(len(self.device.buffer))
        capacity = len(self.slot)
        with ev.queued():
            if m:
                ev.set(self.X[:m], np.ascontiguousarray(X, dtype=np.int32))
                ev.set(self.visited[:m], np.ascontiguousarray(visited, dtype=np.uint8))
            self.slot[:m] = cupy.arange(m)
            self.free[:capacity - m] = cupy.arange(capacity - 1, m - 1, -1)
            self._counts.fill(capacity - m)
        self.unvisited = m - int(np.count_nonzero(visited))

    def pick(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Mark the r-th unvisited member visited; its solution and vector."""
        _, r_host, size_host = self.params.host
        r_host[0], size_host[0] = r, self.device.size
        self.ev.replay(self._graph("pick"))
        self.ev.synchronize()
        self.unvisited -= 1
        _, x, f = self.out.host
        return x.copy(), f.copy()

    def explore(self, x: np.ndarray, f: np.ndarray | None, key, profiler) -> Filtered:
        """Evaluate x's neighborhood, filter it (with f, only the neighbors that dominate f) and update the
        archive, all on the device (the profiler counts it as evaluation); the filter's result (ids,
        vectors, removed members). Position moves draw nothing: `key` is unused."""
        with profiler.section("evaluation"):
            ev, device = self.ev, self.device
            ev.stage(x)
            self.params.host[0][:] = x
            device.gpu_filter.set_params(device.size, f)
            self._pending = True
            ev.replay(self._graph("explore"))
            return self._settle()

    def _settle(self) -> Filtered:
        """Wait for the explore graph; the new size, and the buffers grown when the accepted did not fit."""
        device = self.device
        result = device.gpu_filter.collect(self.ev.F, device.size, self.ev)
        kept = device.size - int(result.removed.sum())
        device.settle(result, self.ev)
        if len(device.buffer) > len(self.slot):
            self._grow(len(device.buffer), kept)
        self.unvisited = int(self.out.host[0][0])
        self._pending = False
        return result

    def members(self) -> tuple[np.ndarray, np.ndarray]:
        """The members' vectors (A, k) and solutions (A, n), on the host, in member order (after an explore
        that an interruption cut short, once it is settled)."""
        if self._pending:
            self._settle()
        if self.device_iterations is not None and self.device_iterations.pending:
            self.device_iterations.finish()
        ev = self.ev
        with ev.queued():
            F = ev.get(self.device.F)
            X = ev.get(self.X[self.slot[:self.device.size]])
        ev.synchronize()
        return F, X

    def vectors(self) -> np.ndarray:
        """The members' vectors (A, k) on the host: members()'s F, without gathering the solutions."""
        if self._pending or (self.device_iterations is not None and self.device_iterations.pending):
            return self.members()[0]
        return self.ev.get(self.device.F)

    def held(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """members() and the members' visited flags (A,) bool, on the host: what hold() takes back."""
        F, X = self.members()
        visited = self.ev.get(self.visited[:self.device.size])  # waits for the copy
        return F, X, visited.astype(bool)

    def holds(self, point: np.ndarray) -> bool:
        """Whether a member weakly dominates `point` (a target), looked at on the device."""
        cupy = import_cupy()
        with self.ev.queued():
            return weakly_dominated(self.device.F, cupy.asarray(point, dtype=cupy.float64))

    def grow(self, rows: int) -> None:
        """Buffers for at least `rows` members (doubled), the members as they are kept."""
        self.device.reserve(rows, self.ev)
        if len(self.device.buffer) > len(self.slot):
            self._grow(len(self.device.buffer), len(self))

    def _grow(self, capacity: int, kept: int) -> None:
        """The accepted did not fit (the vectors are appended already): larger buffers with the kept
        members, then the new ones appended, outside the graph."""
        cupy = import_cupy()
        old = len(self.slot)
        ev = self.ev
        X, slot, visited, free = self.X, self.slot, self.visited, self.free
        self._buffers(capacity)
        with ev.queued():
            self.X[:old] = X
            self.slot[:kept] = slot[:kept]
            self.visited[:kept] = visited[:kept]
            free_rows = old - kept  # counts[1]: every pool row not kept is free
            self.free[:free_rows] = free[:free_rows]
            self.free[free_rows:free_rows + capacity - old] = cupy.arange(capacity - 1, old - 1, -1)
            self._counts[1] = free_rows + capacity - old
            ev.run(self._append, (1,), (self.scan,), self.append_args())
        ev.download(self.out)
        ev.synchronize()

    def _graph(self, name: str):
        if self._graphs is None or self._graphs[2] is not self.device.buffer:
            self._graphs = (self.device.capture(self.ev, self._enqueue_pick),
                            self.device.capture(self.ev, self._enqueue_explore), self.device.buffer)
        return self._graphs[0 if name == "pick" else 1]

    def _enqueue_pick(self) -> None:
        ev = self.ev
        ev.upload(self.params)
        _, r, size = self.params.device
        _, x, f = self.out.device
        ev.run(self._pick, (1,), (self.scan,), (self.X, self.slot, self.visited, self.device.buffer, size, r, x, f))
        ev.download(self.out)

    def _enqueue_explore(self) -> None:
        ev = self.ev
        ev.upload(self.params)
        ev.enqueue_evaluation()
        self.device.enqueue_offer(ev.F, ev, then=self.members_update)
        ev.download(self.out)

    def members_update(self, removed, draw=None) -> None:
        """After the vectors' update, on the same queue: solutions, flags and the free stack, in one kernel;
        with draw = (ctl, active, f), also the next iteration's member drawn (algorithms/pls/device.py)."""
        ctl, active, f = draw or (np.intp(0),) * 3  # null pointers: no draw
        self.ev.run(self._update_solutions, (1,), (self.scan,),
                    (removed, *self.append_args(), self.device.buffer, ctl, active, f))

    def append_args(self) -> tuple:
        """append_members' arguments (resident.cu): the pool, x, the accepted rows, the capacity, the free stack,
        and where the unvisited count and the size go."""
        x, unvisited, m = self.params.device[0], self.out.device[0], self.device.gpu_filter.params.device[0]
        surv, acc, n_acc = self.device.gpu_filter.accepted_rows()
        return (self.X, self.slot, self.visited, x, surv, acc, n_acc, np.int64(len(self.slot)), self.free, self._counts,
                unvisited, m)
