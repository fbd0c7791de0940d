"""Non-dominance filter on the device (filter.cu), with the contract of the host Archive.add (host.py), for
candidates F (N, k) and members A (M, k) already on the device; docs/internals.md says how it works."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mols.backends.cuda import C_TYPES, DeviceQueue, PackedBuffers, compile_module, import_cupy, kernel_source

FILTER_CU = Path(__file__).with_name("filter.cu")
BLOCK, SCAN = 256, 1024  # as in filter.cu
CHUNK = 1 << 20  # rows per launch of a filter kernel
WAVE = 1024  # blocks that about fill a large GPU once (8 blocks a multiprocessor); a small batch splits the archive
ROWS_BACK = 1024  # accepted candidates that come back with the count in one copy; more take a second
KERNELS = ("against_archive", "flag_and_count", "against_survivors", "scan_counts", "scatter", "scatter_first",
           "mark_removed", "pack", "update_members")


class Filtered(NamedTuple):
    ids: np.ndarray  # (a,) int64: the accepted candidates, in increasing order
    F: np.ndarray  # (a, k): their objective vectors
    removed: np.ndarray  # (M,) bool: the members that an accepted candidate dominates

    @classmethod
    def nothing(cls, n_obj: int, dtype, members: int) -> Filtered:
        return cls(np.empty(0, np.int64), np.empty((0, n_obj), dtype), np.zeros(members, bool))

    def accepted(self, n: int) -> np.ndarray:
        """The accepted candidates as a mask over all n (N,)."""
        mask = np.zeros(n, dtype=bool)
        mask[self.ids] = True
        return mask


class GpuFilter:
    """The kernels for k objectives of one dtype, and their scratch buffers; call it as
    `filter(F, A, queue)` (a DeviceQueue: the GPU evaluator's, or the current stream's), or enqueue then collect
    (what a CUDA graph captures, then its result)."""

    def __init__(self, n_obj: int, dtype, chunk: int = CHUNK, rows_back: int = ROWS_BACK):
        cupy = import_cupy()
        self.n_obj, self.dtype, self.chunk, self.rows_back = n_obj, np.dtype(dtype), chunk, rows_back
        module = compile_module(kernel_source({"N_OBJ": n_obj, "FVAL": C_TYPES[self.dtype]}, FILTER_CU.read_text()))
        (self._against_archive, self._count, self._against_survivors, self._scan, self._scatter, self._scatter_first,
         self._mark_removed, self._pack, self._update) = (module.get_function(name) for name in KERNELS)
        blocks = -(-chunk // BLOCK)
        self._keep = cupy.empty(chunk, dtype=cupy.uint8)
        self._killed = cupy.zeros(chunk, dtype=cupy.uint8)  # against_archive's flags, cleared by flag_and_count
        self._counts = cupy.empty(blocks, dtype=cupy.int32)
        self._offsets = cupy.empty(blocks, dtype=cupy.int64)
        self._totals = cupy.empty(2, dtype=cupy.int64)  # survivors, accepted
        self._surv = self._acc = cupy.empty(0, dtype=cupy.int64)
        # m, use_f, f, active (0: filter nothing; Pareto local search on the device sets it there)
        self.params = PackedBuffers([((1,), np.int64), ((1,), np.int32), ((n_obj,), self.dtype), ((1,), np.int32)])
        self._back = self._buffers(BLOCK)

    def _buffers(self, members: int) -> PackedBuffers:
        """count, ids, vectors of the first rows_back accepted, removed flags of up to `members` members."""
        return PackedBuffers([((1,), np.int64), ((self.rows_back,), np.int64),
                              ((self.rows_back, self.n_obj), self.dtype), ((members,), np.uint8)])

    def reserve(self, n: int, members: int) -> None:
        """Scratch for n candidates against up to `members` members (a graph captured after this stays valid
        while the calls fit)."""
        cupy = import_cupy()
        if len(self._surv) < n:
            self._surv, self._acc = cupy.empty(n, dtype=cupy.int64), cupy.empty(n, dtype=cupy.int64)
        if members > self._back.host[3].size:
            self._back = self._buffers(max(members, 2 * self._back.host[3].size))

    def __call__(self, F, A, queue: DeviceQueue | None = None) -> Filtered:
        F, A = self.checked(F), self.checked(A)
        if len(F) == 0:
            return Filtered.nothing(self.n_obj, self.dtype, len(A))
        queue = DeviceQueue.current() if queue is None else queue
        self.set_params(len(A))
        self.enqueue(F, A, len(A), queue)
        return self.collect(F, len(A), queue)

    def set_params(self, m: int, f: np.ndarray | None = None) -> None:
        """The archive's size m, and f: filter only the candidates that dominate it (None: all)."""
        m_host, use_f, f_host, active = self.params.host
        m_host[0], use_f[0], active[0] = m, f is not None, 1
        if f is not None:
            f_host[:] = f

    def enqueue(self, F, A, capacity: int, queue: DeviceQueue, update: bool = False, then=None,
                on_device: bool = False) -> None:
        """Every step on `queue`, no wait and no allocation: the parameters up, the filter of F (N, k) against the
        first m rows of A (capacity, k), with `update` the archive's update in place, then `then(removed)` (more
        work on the device's removed flags), and the result down. With `on_device` (Pareto local search on the
        device, algorithms/pls/device.py), the parameters are those on the device, where the caller's kernels write them:
        none go up, no result comes down, and `then` marks the members removed and does the update, and sets
        the totals (accepted_rows) back to 0 for the next call."""
        self.reserve(len(F), capacity)
        m_ptr = self.params.device[0]
        if not on_device:
            queue.upload(self.params)
        with queue.queued():
            if not on_device:
                queue.zero(self._totals)
            n_surv, n_acc = self._totals[:1], self._totals[1:]
            self._against_archive_all(F, A, capacity, m_ptr)
            for lo, size, grid in self._chunks(len(F)):  # survivors are at most N; blocks past them stop at once
                self._against_survivors(grid, (BLOCK,), (F, self._surv, n_surv, lo, size, self._keep, self._counts))
                self._compact(grid, lo, size, n_acc, self._acc)
            count, ids, rows, removed = self._back.device
            if capacity and not on_device:
                self._mark_removed((-(-capacity // BLOCK),), (BLOCK,),
                                   (A, m_ptr, F, self._surv, self._acc, n_acc, removed))
            if not on_device:
                grid = (-(-min(len(F), self.rows_back) // BLOCK),)
                self._pack(grid, (BLOCK,), (F, self._surv, self._acc, n_acc, np.int64(self.rows_back), count, ids,
                                            rows))
            if update:
                self._update((1,), (SCAN,), (A, m_ptr, removed, F, self._surv, self._acc, n_acc, np.int64(capacity)))
            if then is not None:
                then(removed)
        if not on_device:
            queue.download(self._back)

    def accepted_rows(self):
        """On the device, after enqueue: (surv, acc, n_acc): the accepted candidates are surv[acc[t]] for
        t < n_acc[0]."""
        return self._surv, self._acc, self._totals[1:]

    @property
    def totals(self):
        """On the device: the survivors' and the accepted candidates' counts, (2,) int64 (enqueue's on_device)."""
        return self._totals

    def collect(self, F, m: int, queue: DeviceQueue) -> Filtered:
        """Wait for what enqueue started, and read its result (m: the archive's size it was given)."""
        queue.synchronize()
        count, ids, rows, removed = self._back.host
        count = int(count[0])
        removed = removed[:m].astype(bool)
        if count <= self.rows_back:
            return Filtered(ids[:count].copy(), rows[:count].copy(), removed)
        with queue.queued():  # a second copy, of all of them
            ids = self._surv[self._acc[:count]]
            return Filtered(queue.get(ids), queue.get(F[ids]), removed)

    def _against_archive_all(self, F, A, capacity: int, m_ptr) -> None:
        """The candidates that no member weakly dominates (of those filter.cu's seeded picks), appended to the
        survivors in order, chunk by chunk. The archive is split into slices of tiles when a chunk has
        too few blocks to fill the device."""
        n_surv, seed = self._totals[:1], self.params.device[1:]  # seed: use_f, f, active
        slices = max(1, min(-(-capacity // BLOCK), WAVE // -(-min(len(F), self.chunk) // BLOCK)))
        for lo, size, grid in self._chunks(len(F)):
            self._against_archive((grid[0], slices), (BLOCK,), (F, lo, size, *seed, A, m_ptr, self._killed))
            self._count(grid, (BLOCK,), (F, lo, size, *seed, self._killed, self._keep, self._counts))
            self._compact(grid, lo, size, n_surv, self._surv)

    def _chunks(self, n: int):
        for lo in range(0, n, self.chunk):
            size = min(self.chunk, n - lo)
            yield np.int64(lo), np.int64(size), (-(-size // BLOCK),)

    def _compact(self, grid, lo, size, total, out) -> None:
        """out[total + r] = lo + t for the r-th flagged row t of the chunk; total grows by their count (the first
        chunk's total is 0 before: one launch does it)."""
        if lo == 0:
            self._scatter_first(grid, (BLOCK,), (self._keep, size, self._counts, out, total))
            return
        self._scan((1,), (SCAN,), (self._counts, np.int64(grid[0]), self._offsets, total))
        self._scatter(grid, (BLOCK,), (self._keep, size, self._offsets, lo, out))

    def checked(self, F):
        """F as a contiguous (N, k) array of this filter's dtype; ValueError for another shape or dtype."""
        if F.ndim != 2 or F.shape[1] != self.n_obj or F.dtype != self.dtype:
            raise ValueError(f"expected an (N, {self.n_obj}) {self.dtype} array, got {F.shape} {F.dtype}")
        return import_cupy().ascontiguousarray(F)


@cache
def _filter(n_obj: int, dtype: np.dtype) -> GpuFilter:
    return GpuFilter(n_obj, dtype)


def filter_candidates(F, A, queue: DeviceQueue | None = None) -> Filtered:
    """The candidates F (N, k) that the archive A (M, k) accepts, and the members they remove; both
    CuPy arrays of one dtype (the contract: docs/internals.md), on `queue` (None: the current stream)."""
    return _filter(F.shape[1], F.dtype)(F, A, queue)
