"""Device-side selection for the GPU backend: evaluate, reduce to the best admissible neighbor
(select.cu) and bring back only that neighbor's id, score and objective vector."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mols.backends.cuda import PackedBuffers, compile_module, import_cupy, kernel_source
from mols.backends.select import C_TYPES

SELECT_CU = Path(__file__).with_name("select.cu")
SEL_BLOCK = 256  # as in select.cu
MAX_PARTS = 1024  # blocks of select_partial at most; each strides over the rest
PENDING = 16  # forbids queued on the host between two launches; the graph writes them first


class DeviceSelection:
    """One CUDA graph per evaluator: state and parameters in, the forbids queued since the last
    launch, the evaluation kernel, the two selection kernels, the result out. forbidden_until
    (n_neighbors,) stays on the device; a forbid costs no launch of its own."""

    def __init__(self, ev):
        cupy = import_cupy()
        k, dtype, n = ev.problem.n_obj, np.dtype(ev.problem.dtype), ev.n_neighbors
        module = compile_module(kernel_source({"N_OBJ": k, "FVAL": C_TYPES[dtype]}, SELECT_CU.read_text()))
        self._forbids, self._partial, self._final = (
            module.get_function(name) for name in ("apply_forbids", "select_partial", "select_final"))
        self.ev = ev
        self.params = PackedBuffers([((k,), np.float64), ((1,), np.float64), ((1,), np.int64),
                                     ((PENDING,), np.int64), ((PENDING,), np.int64), ((1,), np.int64)])
        self.result = PackedBuffers([((1,), np.int64), ((1,), np.float64), ((k,), dtype)])
        self.forbidden_until = cupy.zeros(n, dtype=cupy.int64)
        self.n_parts = min(-(-n // SEL_BLOCK), MAX_PARTS)
        self._part_s = cupy.empty(2 * self.n_parts, dtype=cupy.float64)
        self._part_i = cupy.empty(2 * self.n_parts, dtype=cupy.int64)
        self._graph = self._capture()

    def _capture(self):
        ev, stream = self.ev, self.ev.stream
        c, threshold, step, forbid_ids, forbid_until, n_forbids = self.params.device
        out_id, out_score, out_f = self.result.device
        stream.begin_capture()
        ev._state.upload(stream)
        self.params.upload(stream)
        ev.launch()
        with stream:
            self._forbids((1,), (1,), (forbid_ids, forbid_until, n_forbids, self.forbidden_until))
            self._partial((self.n_parts,), (SEL_BLOCK,), (ev.F, np.int64(ev.n_neighbors), c, threshold, step,
                                                          self.forbidden_until, self._part_s, self._part_i))
            self._final((1,), (SEL_BLOCK,), (self._part_s, self._part_i, np.int32(self.n_parts), ev.F,
                                             out_id, out_score, out_f))
        self.result.download(stream)
        return stream.end_capture()

    def __call__(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float):
        ev = self.ev
        ev.stage(x)
        c_host, threshold_host, step_host, *_, n_forbids = self.params.host
        c_host[:] = c
        threshold_host[0] = threshold
        step_host[0] = step
        self._graph.launch(ev.stream)
        ev.stream.synchronize()
        n_forbids[0] = 0
        out_id, out_score, out_f = self.result.host
        return int(out_id[0]), float(out_score[0]), out_f.copy()

    def forbid(self, idx: int, until: int) -> None:
        *_, ids, untils, count = self.params.host
        if count[0] == PENDING:
            self._write_forbids()
        ids[count[0]], untils[count[0]] = idx, until
        count[0] += 1

    def allow_all(self) -> None:
        self.params.host[-1][0] = 0
        with self.ev.stream:
            self.forbidden_until.fill(0)

    def _write_forbids(self) -> None:
        """Apply the queued forbids now, in order, on the evaluator's stream."""
        *_, ids, untils, count = self.params.host
        with self.ev.stream:
            for t in range(count[0]):  # in order: a later forbid of the same id wins
                self.forbidden_until[int(ids[t])] = int(untils[t])
        count[0] = 0
