"""Device-side selection for the GPU backend: evaluate, reduce to the best admissible neighbor (select.cu) and bring
back only its id, score and objective vector; chunk by chunk, fused with the evaluation where the problem has a
selection kernel, and per lane (docs/internals.md)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from mols.algorithms.tabu.select import TABU_DTYPE, still_tabu
from mols.backends.cuda import (
    C_TYPES,
    PackedBuffers,
    compile_module,
    device_array,
    import_cupy,
    kernel_source,
)
from mols.backends.launch import problem_source

SELECT_CU = Path(__file__).with_name("select.cu")
SEL_BLOCK = 256  # as in select.cu: the default Launch's sel_block
PENDING = 16  # forbids queued on the host between two launches; the graph writes them first


def selection_defines(ev) -> dict[str, int | str]:
    """The #defines select.cu compiles with for the evaluator: N_OBJ, FVAL, and SEL_BLOCK where its launch has
    another than select.cu's."""
    defines = {"N_OBJ": ev.problem.n_obj, "FVAL": C_TYPES[np.dtype(ev.problem.dtype)]}
    return defines if ev.launch.sel_block == SEL_BLOCK else {**defines, "SEL_BLOCK": ev.launch.sel_block}


def needed_parts(ev, first: int, block: int) -> int:
    """Blocks of `block` threads that give each row of the chunk from `first` on its own thread(s)."""
    threads = ev.move_threads if ev.spec.fused and ev.problem.kernels.selection_kernels.get(ev.nbh.name) else 1  # per row
    return -(-min(ev.chunk, ev.ids.stop - first) * threads // block)


class DeviceSelection:
    """One CUDA graph per evaluator: state and parameters in, the forbids queued since the last
    launch, the evaluation kernel, the two selection kernels, the result out. forbidden_until
    (n_neighbors,) stays on the device; a forbid costs no launch of its own. With `pairs` (a device's share of a
    split neighborhood, split_select.py), the last kernel is select_pairs and the result holds its two pairs."""

    def __init__(self, ev, pairs: bool = False):
        k, dtype, n, lanes = ev.problem.n_obj, np.dtype(ev.problem.dtype), ev.ids.stop, ev.lanes  # ids below n
        self.params = PackedBuffers([((lanes, k), np.float64), ((lanes,), np.float64), ((lanes,), np.int64),
                                     ((PENDING,), np.int64), ((PENDING,), np.int64), ((1,), np.int64)])
        entries = 2 if pairs else lanes
        self.result = PackedBuffers([((entries,), np.int64), ((entries,), np.float64), ((entries, k), dtype)])
        with ev.queued():  # zeroed in the queue of the forbids that may follow at once (forbid, _write_forbids)
            self.forbidden_until = device_array(lanes * n, TABU_DTYPE, f"the tabu memory of {ev.what}", fill=0)
        self._pairs = pairs
        self._build(ev)

    def variant(self, ev) -> DeviceSelection:
        """This selection on `ev`, its evaluator under another launch (GpuEvaluator.with_launch): kernels, parts and
        graph of its own, and this one's tabu memory, parameters and result, so that the launch may change from one
        step of a walk to the next (the tuner's candidates, tuned.py)."""
        other = copy.copy(self)
        other._build(ev)
        return other

    def _build(self, ev) -> None:
        """The kernels, parts and graph of ev's launch."""
        cupy, k, lanes = import_cupy(), ev.problem.n_obj, ev.lanes
        fused = ev.problem.kernels.selection_kernels.get(ev.nbh.name) if ev.spec.fused else None
        defines = selection_defines(ev)
        self.block = ev.launch.sel_block
        if fused:  # the problem's kernels after select.cu, in one module
            module = compile_module(problem_source({**ev.defines, **defines}, ev.problem, ev.nbh, SELECT_CU.read_text()))
            ev.point_moves(module)
        else:
            module = compile_module(kernel_source(defines, SELECT_CU.read_text()))
        self._fused = module.get_function(fused) if fused else None
        self._forbids, self._partial, self._final = (module.get_function(name) for name in (
            "apply_forbids", "select_partial", "select_pairs" if self._pairs else "select_final"))
        self.ev = ev
        self.parts = [min(needed_parts(ev, first, self.block), ev.launch.grid) for first in ev.firsts]  # each strides
        self.n_parts = sum(self.parts)  # over all chunks, per lane
        self._part_s = cupy.empty(2 * lanes * self.n_parts, dtype=cupy.float64)
        self._part_i = cupy.empty(2 * lanes * self.n_parts, dtype=cupy.int64)
        self._part_f = cupy.empty(2 * lanes * self.n_parts * k, dtype=ev.problem.dtype)  # each pair's row of F
        self._graph = self._capture()

    def _capture(self):
        return self.ev.capture(self._enqueue_round_trip)

    @property
    def graph(self):
        """The CUDA graph of one selection's round trip: state and parameters up, evaluation, selection, result down."""
        return self._graph

    def _enqueue_round_trip(self) -> None:
        ev = self.ev
        _, _, _, forbid_ids, forbid_until, n_forbids = self.params.device
        ev.enqueue_upload()
        ev.upload(self.params)
        ev.run(self._forbids, (1,), (1,), (forbid_ids, forbid_until, n_forbids, self.forbidden_until))
        self.enqueue()
        ev.download(self.result)

    def enqueue(self, final: bool = True) -> None:
        """Evaluation and selection on the evaluator's queue, from the state and parameters on the
        device: the choice lands in self.result.device (lane 0's). final=False stops before select_final,
        whose work a walk step does itself for each lane (final_args, walk.cu)."""
        ev = self.ev
        c, threshold, step, *_ = self.params.device
        k = ev.problem.n_obj
        done = 0  # parts of the chunks so far
        for first, parts in zip(ev.firsts, self.parts):
            out = (c, threshold, step, self.forbidden_until,
                   self._part_s[2 * done:], self._part_i[2 * done:], self._part_f[2 * done * k:])
            if self._fused is not None:
                rows = min(ev.chunk, ev.ids.stop - first)
                ev.run(self._fused, (parts, ev.lanes), (self.block,), (*ev.data, *ev.state_args,
                                                                       np.int64(first + rows), np.int64(first), *out))
            else:
                rows = ev.enqueue_launch(first)
                ev.run(self._partial, (parts, ev.lanes), (self.block,), (ev.F, np.int64(rows), np.int64(first), *out))
            done += parts
        if final:
            ev.run(self._final, (1,), (self.block,), self.final_args())

    def final_args(self) -> tuple:
        """select_final's arguments (final_choice's in select.cu): the blocks' pairs, then the result (each
        from lane 0's; the parts per lane)."""
        return (self._part_s, self._part_i, self._part_f, np.int32(self.n_parts), *self.result.device)

    def _set(self, c: np.ndarray, threshold: float, step: int, lane: int = 0) -> None:
        c_host, threshold_host, step_host, *_ = self.params.host
        c_host[lane] = c
        threshold_host[lane] = threshold
        step_host[lane] = step

    def start(self, starts: list) -> None:
        """Walks' start on the device (gpu_walk.py), one per lane from lane 0 on: each start's solution x
        (with the first step's draw key, for a sampled neighborhood), its coefficients c and threshold at
        step 0 go up, and every move is admissible again."""
        ev = self.ev
        for lane, (x, c, threshold, key) in enumerate(starts):
            ev.stage(x, key, lane)
            self._set(c, threshold, 0, lane)
        self.allow_all()
        ev.upload(self.params)
        ev.enqueue_upload()

    def __call__(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None = None):
        """HostSelection's call (selection.py): evaluated and chosen on the device; only (id, score, F[id]) come
        back."""
        self.ev.stage(x, key)
        self.launch(c, threshold, step)
        out_id, out_score, out_f = self.collect()
        return int(out_id[0]), float(out_score[0]), out_f[0].copy()

    def launch(self, c: np.ndarray, threshold: float, step: int) -> None:
        """The graph replayed on the state staged, with these parameters (collect waits for its result)."""
        self._set(c, threshold, step)
        self.ev.replay(self._graph)

    def collect(self) -> tuple[np.ndarray, ...]:
        """The launch's result (id, score, objective vector: result.host's views), once it is in."""
        self.ev.synchronize()
        self.params.host[-1][0] = 0  # the queued forbids are applied
        return self.result.host

    def forbid(self, idx: int, until: int) -> None:
        *_, ids, untils, count = self.params.host
        if count[0] == PENDING:
            self._write_forbids()
        ids[count[0]], untils[count[0]] = idx, until
        count[0] += 1

    def allow_all(self) -> None:
        self.params.host[-1][0] = 0
        with self.ev.queued():
            self.forbidden_until.fill(0)

    def tabu_after(self, step: int) -> np.ndarray:
        """HostSelection.tabu_after of lane 0 (a host walk's) over the evaluator's ids, its queued forbids written
        first."""
        self._write_forbids()
        ids = self.ev.ids
        with self.ev.queued():
            forbidden_until = self.forbidden_until[ids.start:ids.stop].get()
        tabu = still_tabu(forbidden_until, step)
        tabu[0] += ids.start
        return tabu

    def preset(self, lane: int, tabu: np.ndarray) -> None:
        """The lane's tabu memory at the start of a resumed walk (steps.WalkLane.tabu, each id once), after start's
        allow_all, in the evaluator's queue."""
        ids, until = tabu
        with self.ev.queued():
            self.forbidden_until[import_cupy().asarray(lane * self.ev.n_neighbors + ids)] = \
                import_cupy().asarray(until.astype(TABU_DTYPE))

    def _write_forbids(self) -> None:
        """Apply the queued forbids now, in order, on the evaluator's queue."""
        *_, ids, untils, count = self.params.host
        with self.ev.queued():
            for t in range(count[0]):  # in order: a later forbid of the same id wins
                self.forbidden_until[int(ids[t])] = int(untils[t])
        count[0] = 0
