"""A tabu walk run on the device: the steps of walks.py's host walk without a round trip each, a batch of steps one
CUDA graph, several walks side by side in lanes; the choices are the host loop's, step for step
(docs/internals.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from mols.algorithms.tabu.gpu_select import SELECT_CU, selection_defines
from mols.algorithms.tabu.positions import LanePositions
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.steps import LaneBatch, Position, Trail, WalkLane
from mols.backends.cuda import (
    PackedBuffers,
    compile_kernel,
    compile_module,
    device_array,
    import_cupy,
    kernel_source,
)
from mols.backends.launch import problem_source
from mols.errors import OptionError

WALK_CU = Path(__file__).with_name("walk.cu")
APPLY_BLOCK = 256


class DeviceWalk:
    """The walks of up to ev.lanes searches at once, one lane each (a single walk: lane 0). With `rots` (every,
    slots), the problem's whole-step kernel keeps Ro-TS's memory instead of the moves' (RotsTables)."""

    def __init__(self, ev, batch: int, rots: tuple[int, int] | None = None):
        self.ev, self.sel, self.batch = ev, selection_for(ev), batch
        self.rots = None if rots is None else RotsTables(ev, *rots)
        problem, k, lanes = ev.problem, ev.problem.n_obj, ev.lanes
        defines = selection_defines(ev)
        module = compile_module(kernel_source(defines, ev.nbh.cuda_source(), SELECT_CU.read_text(),
                                              WALK_CU.read_text()))
        self._step = module.get_function("walk_step")
        self._apply = compile_kernel(ev.source, problem.kernels.apply_kernels.get(ev.nbh.name))
        self._whole_step = self._whole_step_kernel(defines)
        # each lane's tenure, steps, and `last` (KernelSet.walk_kernel: -1 when its walk starts)
        self.params = PackedBuffers([((lanes,), np.int64), ((lanes,), np.int64), ((lanes,), np.int64)])
        rows = lanes * batch  # entry lane * batch + t: the lane's step t of the batch
        # two trails: batch i + 1 runs on the device into one while the host reads batch i from the other
        self.trails = [PackedBuffers([((rows,), np.int64), ((rows,), np.float64), ((rows * k,), problem.dtype)])
                       for _ in range(2)]
        self._done = [import_cupy().cuda.Event(disable_timing=True) for _ in range(2)]  # each trail's batch is in
        self._graphs = {}  # (steps, trail) -> the graph of a batch of that many into that trail
        self.at = None  # where the walks stand (LanePositions), once some have started

    def __call__(self, x: np.ndarray, c: np.ndarray, threshold: float, steps: int, tenure: int,
                 keys: np.ndarray | None = None, tabu: np.ndarray | None = None) -> Iterator[Trail]:
        """`steps` tabu steps from x, every move admissible at first (but those of `tabu`, WalkLane.tabu), step t
        drawing with keys[t] where the neighborhood samples; yields the trail batch by batch, its scores and vectors
        in views that the next batch overwrites."""
        for [(_, trail)] in self.lanes([WalkLane(x, c, threshold, steps, keys, tabu)], tenure):
            yield trail

    def lanes(self, walks: list[WalkLane], tenure: int) -> Iterator[list[tuple[int, Trail]]]:
        """The walks side by side (batches), yielding, batch by batch, (b, trail) for each walk b that took steps."""
        for batch in self.batches(walks, tenure):
            yield batch.trails()

    def batches(self, walks: list[WalkLane], tenure: int | np.ndarray) -> Iterator[LaneBatch]:
        """The walks side by side, walk b in lane b with the tenure given (one for all, or one per walk), every move
        admissible at first (but those of a resumed walk's WalkLane.tabu); yields each batch of steps of them all
        (views that the next batch overwrites), its solutions rebuilt from the moves for all walks in one call
        (Neighborhood.paths)."""
        ev, lanes, batch = self.ev, self.ev.lanes, self.batch
        if len(walks) > lanes:
            raise ValueError(f"{len(walks)} walks for {lanes} lanes")
        steps = np.array([w.steps for w in walks], dtype=np.int64)
        longest = int(steps.max(initial=0))
        x = np.stack([w.x for w in walks])
        tenures = np.broadcast_to(np.asarray(tenure, dtype=np.int64), (len(walks),))
        self.at = LanePositions(walks, x, tenures, ev.nbh)
        if longest == 0:
            return
        self.sel.start([(w.x, w.c, w.threshold, _first_key(w)) for w in walks])
        for b, w in enumerate(walks):
            if w.tabu is not None and w.tabu.shape[1]:
                self.sel.preset(b, w.tabu)
        tenure_host, limit_host, last_host = self.params.host
        tenure_host[:len(walks)] = tenures
        limit_host[:] = 0  # lanes without a walk end at once
        limit_host[:len(walks)] = steps
        last_host[:] = -1
        ev.upload(self.params)
        firsts = range(0, longest, batch)
        self._launch(longest, 0)
        for i, first in enumerate(firsts):
            if i + 1 < len(firsts):
                self._launch(longest - firsts[i + 1], (i + 1) % 2)
            self._done[i % 2].synchronize()
            m = min(batch, longest - first)
            # contiguous, as Numba compiled them in the warm-up (search.py's warm_lanes), whatever L and m
            ids, scores, F = (np.ascontiguousarray(a.reshape(lanes, batch, -1)[:len(walks), :m])
                              for a in self.trails[i % 2].host)
            taken = np.clip(steps - first, 0, m)
            X = ev.nbh.paths(x, ids[..., 0], taken, _keys(walks, first, m))
            moved = np.flatnonzero(taken)
            x[moved] = X[moved, taken[moved] - 1]
            self.at.took(first, ids[..., 0], taken)
            yield LaneBatch(taken, X, scores[..., 0], F)

    def position(self, lane: int) -> Position:
        """Where the walk in `lane` stands after the last batch the host read (LanePositions)."""
        return self.at.position(lane)

    def solutions(self, lanes: int) -> np.ndarray:
        """Where the walks in the first `lanes` lanes stand (position's x, without the tabu memory it rebuilds)."""
        return self.at.x[:lanes].copy()

    def _launch(self, left: int, trail: int) -> None:
        """The next batch of steps (at most `left`) into `trail`, and the event that says it is in."""
        self.ev.replay(self._graph(min(self.batch, left), trail))
        self.ev.record(self._done[trail])

    def _graph(self, steps: int, trail: int):
        if (steps, trail) not in self._graphs:
            self._graphs[steps, trail] = self.ev.capture(lambda: self._enqueue_steps(steps, self.trails[trail]))
        return self._graphs[steps, trail]

    def _whole_step_kernel(self, defines: dict) -> WholeStep | None:
        """The problem's kernel of a whole step (KernelSet.walk_kernel), where the spec fuses the selection and the
        neighborhood is one chunk; else None."""
        ev = self.ev
        kernel = ev.problem.kernels.walk_kernel(ev.nbh, self.sel.block)
        if kernel is None or not ev.spec.fused or len(ev.firsts) > 1:
            if self.rots is not None:
                raise OptionError("memory", "Ro-TS's memory walks on the device in the problem's whole-step kernel "
                                  "(QAP, fused selection, one chunk): choose --backend cpu or memory moves")
            return None
        if self.rots is not None:
            defines = {**defines, "ROTS": 1}
        source = problem_source({**ev.defines, **defines, "WALK_STEP": 1}, ev.problem, ev.nbh, SELECT_CU.read_text(),
                                WALK_CU.read_text())
        return WholeStep(compile_module(source).get_function(kernel.name), kernel.blocks or self.sel.parts[0],
                         kernel.memory, ev.lanes, ev.problem)

    def _enqueue_steps(self, steps: int, trail) -> None:
        if self._whole_step is not None:
            self._enqueue_whole_steps(steps, trail)
            return
        ev, sel, k = self.ev, self.sel, self.ev.problem.n_obj
        _, threshold, step, *_ = sel.params.device
        out_id, _, out_f = sel.result.device
        tenure, limit, _ = self.params.device
        trail_id, trail_score, trail_f = trail.device
        grid = (1, ev.lanes)
        for t in range(steps):
            sel.enqueue(final=False)
            ev.run(self._step, grid, (sel.block,), (*sel.final_args(), threshold, step, limit, tenure,
                                                    sel.forbidden_until, np.int32(ev.problem.n),
                                                    np.int64(ev.n_neighbors), trail_id[t:], trail_score[t:],
                                                    trail_f[t * k:], np.int32(self.batch)))
            ev.run(self._apply, grid, (APPLY_BLOCK,), (*ev.data, *ev.state_args, out_id, out_f))
            ev.enqueue_prepare()
        ev.download(trail)

    def _enqueue_whole_steps(self, steps: int, trail) -> None:
        """`steps` steps of one launch each (KernelSet.walk_kernel), then the trail down."""
        ev, sel, k, whole = self.ev, self.sel, self.ev.problem.n_obj, self._whole_step
        c, threshold, step, *_ = sel.params.device
        tenure, limit, last = self.params.device
        trail_id, trail_score, trail_f = trail.device
        for t in range(steps):
            ev.run(whole.function, (whole.blocks, ev.lanes), (sel.block,), (
                *ev.data, *ev.state_args, np.int64(ev.n_neighbors), c, threshold, step, sel.forbidden_until,
                *whole.parts, whole.arrivals, *sel.result.device, limit, tenure, trail_id[t:], trail_score[t:],
                trail_f[t * k:], np.int32(self.batch), whole.memory, last,
                *(() if self.rots is None else self.rots.args)))
            ev.enqueue_prepare()
        ev.download(trail)


class RotsTables:
    """Ro-TS's memory of the lanes on the device (qap.cu's ROTS): each lane's table left (n, n), the step at which
    value v last left position q, and its tenures (slots of them, one per `every` steps, the last kept after)."""

    def __init__(self, ev, every: int, slots: int):
        n, lanes = ev.problem.n, ev.lanes
        self.ev, self.shape = ev, (n, n)
        self.left = device_array(lanes * n * n, np.int32, "Ro-TS's tables")
        self.tenures = device_array(lanes * slots, np.int64, "Ro-TS's tenures")
        self.args = (self.left, self.tenures, np.int64(every), np.int32(slots))

    def load(self, left: np.ndarray, tenures: np.ndarray) -> None:
        """Walks' tables (L, n, n) int32 and tenures (L, slots) int64 up, for lanes 0 .. L - 1, in the queue."""
        cupy = import_cupy()
        with self.ev.queued():
            self.left[:left.size] = cupy.asarray(left.ravel())
            self.tenures[:tenures.size] = cupy.asarray(tenures.ravel())

    def tables(self, walks: int) -> np.ndarray:
        """The first `walks` lanes' tables (walks, n, n), once the work queued is done."""
        return self.ev.get(self.left[:walks * self.shape[0] * self.shape[1]]).reshape(walks, *self.shape)


class WholeStep:
    """A problem's whole-step kernel (KernelSet.walk_kernel) and what it works in: its blocks' parts of the selection
    (select.cu's write_part), its lanes' counters of blocks done (last_block_of_lane) and walk memory."""

    def __init__(self, function, blocks: int, memory: int, lanes: int, problem):
        cupy = import_cupy()
        self.function, self.blocks = function, blocks
        pairs = 2 * lanes * blocks
        self.parts = (cupy.empty(pairs, dtype=np.float64), cupy.empty(pairs, dtype=np.int64),
                      cupy.empty(pairs * problem.n_obj, dtype=problem.dtype))
        self.arrivals = cupy.zeros(lanes, dtype=np.uint32)
        self.memory = cupy.zeros(max(1, lanes * memory), dtype=np.uint8)


def _first_key(walk: WalkLane) -> np.ndarray | None:
    """The draw key that goes up with the walk's start: its first step's (any key, where it takes none)."""
    if walk.keys is None:
        return None
    return walk.keys[0] if len(walk.keys) else np.zeros(2, dtype=np.uint64)


def _keys(walks: list[WalkLane], first: int, m: int) -> np.ndarray | None:
    """Each walk's draw keys of steps first .. first + m - 1 (L, m, 2), where the neighborhood samples."""
    if walks[0].keys is None:
        return None
    keys = np.zeros((len(walks), m, 2), dtype=np.uint64)
    for b, w in enumerate(walks):
        part = w.keys[first:first + m]
        keys[b, :len(part)] = part
    return keys
