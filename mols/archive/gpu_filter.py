"""Non-dominance filter on the device (filter.cu), with the contract of the host Archive.add
(mols/archive/host.py), for candidates F (N, k) and archive members A (M, k) already on the device:

    accepted[i]: no candidate dominates F[i], no earlier candidate equals it, and no member weakly
                 dominates it (a <= F[i] in every objective);
    removed[a]:  some accepted candidate dominates member a.

Every candidate is first checked against the archive, and only the survivors (usually few) against
each other. That is exact: a member that weakly dominates candidate j also dominates every candidate
that j dominates. Survivors are compacted on the device in candidate order (block counts, one scan,
a scatter), and a single copy brings back the count, the accepted ids and vectors and the removed
flags. Candidates go through in chunks, so the scratch memory is bounded whatever N; nothing is N x N.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mols.backends.cuda import PackedBuffers, compile_module, import_cupy, kernel_source
from mols.backends.select import C_TYPES

FILTER_CU = Path(__file__).with_name("filter.cu")
BLOCK, SCAN = 256, 1024  # as in filter.cu
CHUNK = 1 << 20  # rows per launch of a filter kernel
WAVE = 1024  # blocks that about fill an H100 once (132 SMs x 8 blocks); a small batch splits the archive
ROWS_BACK = 1024  # accepted candidates that come back with the count in one copy; more take a second
KERNELS = ("against_archive", "count_flags", "against_survivors", "scan_counts", "scatter", "mark_removed", "pack")


class Filtered(NamedTuple):
    ids: np.ndarray  # (a,) int64: the accepted candidates, in increasing order
    F: np.ndarray  # (a, k): their objective vectors
    removed: np.ndarray  # (M,) bool: the members that an accepted candidate dominates

    def accepted(self, n: int) -> np.ndarray:
        """The accepted candidates as a mask over all n (N,)."""
        mask = np.zeros(n, dtype=bool)
        mask[self.ids] = True
        return mask


class GpuFilter:
    """The kernels for k objectives of one dtype, and their scratch buffers; call it as
    `filter(F, A, stream)`. Each call waits for its own result, once, at the end."""

    def __init__(self, n_obj: int, dtype, chunk: int = CHUNK, rows_back: int = ROWS_BACK):
        cupy = import_cupy()
        self.n_obj, self.dtype, self.chunk, self.rows_back = n_obj, np.dtype(dtype), chunk, rows_back
        module = compile_module(kernel_source({"N_OBJ": n_obj, "FVAL": C_TYPES[self.dtype]}, FILTER_CU.read_text()))
        (self._against_archive, self._count, self._against_survivors, self._scan, self._scatter, self._mark_removed,
         self._pack) = (module.get_function(name) for name in KERNELS)
        blocks = -(-chunk // BLOCK)
        self._keep = cupy.empty(chunk, dtype=cupy.uint8)
        self._counts = cupy.empty(blocks, dtype=cupy.int32)
        self._offsets = cupy.empty(blocks, dtype=cupy.int64)
        self._totals = cupy.empty(2, dtype=cupy.int64)  # survivors, accepted
        self._back = self._buffers(BLOCK)

    def _buffers(self, members: int) -> PackedBuffers:
        """count, ids, vectors of the first rows_back accepted, removed flags of up to `members` members."""
        return PackedBuffers([((1,), np.int64), ((self.rows_back,), np.int64),
                              ((self.rows_back, self.n_obj), self.dtype), ((members,), np.uint8)])

    def __call__(self, F, A, stream=None) -> Filtered:
        cupy = import_cupy()
        F, A = self._checked(F), self._checked(A)
        n, m = len(F), len(A)
        if n == 0:
            return Filtered(np.empty(0, np.int64), np.empty((0, self.n_obj), self.dtype), np.zeros(m, bool))
        if m > self._back.host[3].size:
            self._back = self._buffers(2 * m)
        stream = stream or cupy.cuda.get_current_stream()
        with stream:
            surv, acc = self._launch(F, A, stream)
        self._back.download(stream)
        stream.synchronize()
        return self._result(F, surv, acc, m, stream)

    def _launch(self, F, A, stream):
        """All kernels, no wait: survivors' ids in surv, and the accepted ones' positions in surv in acc."""
        cupy = import_cupy()
        n, m = len(F), len(A)
        cupy.cuda.runtime.memsetAsync(self._totals.data.ptr, 0, self._totals.nbytes, stream.ptr)
        n_surv, n_acc = self._totals[:1], self._totals[1:]
        surv, acc = cupy.empty(n, dtype=cupy.int64), cupy.empty(n, dtype=cupy.int64)
        self._against_archive_all(F, A, stream, n_surv, surv)
        for lo, size, grid in self._chunks(n):  # survivors are at most n; blocks past them stop at once
            self._against_survivors(grid, (BLOCK,), (F, surv, n_surv, lo, size, self._keep, self._counts))
            self._compact(grid, lo, size, n_acc, acc)
        count, ids, rows, removed = self._back.device
        if m:
            self._mark_removed((-(-m // BLOCK),), (BLOCK,), (A, np.int64(m), F, surv, acc, n_acc, removed))
        grid = (-(-min(n, self.rows_back) // BLOCK),)
        self._pack(grid, (BLOCK,), (F, surv, acc, n_acc, np.int64(self.rows_back), count, ids, rows))
        return surv, acc

    def _against_archive_all(self, F, A, stream, n_surv, surv) -> None:
        """The candidates that no member weakly dominates, appended to surv in order, chunk by chunk.
        The archive is split into slices of tiles when a chunk has too few blocks to fill the device."""
        runtime = import_cupy().cuda.runtime
        n, m = len(F), len(A)
        slices = max(1, min(-(-m // BLOCK), WAVE // -(-min(n, self.chunk) // BLOCK)))
        for lo, size, grid in self._chunks(n):
            runtime.memsetAsync(self._keep.data.ptr, 1, int(size), stream.ptr)
            self._against_archive((grid[0], slices), (BLOCK,), (F, lo, size, A, np.int64(m), self._keep))
            self._count(grid, (BLOCK,), (self._keep, size, self._counts))
            self._compact(grid, lo, size, n_surv, surv)

    def _chunks(self, n: int):
        for lo in range(0, n, self.chunk):
            size = min(self.chunk, n - lo)
            yield np.int64(lo), np.int64(size), (-(-size // BLOCK),)

    def _compact(self, grid, lo, size, total, out) -> None:
        """out[total + r] = lo + t for the r-th flagged row t of the chunk; total grows by their count."""
        self._scan((1,), (SCAN,), (self._counts, np.int64(grid[0]), self._offsets, total))
        self._scatter(grid, (BLOCK,), (self._keep, size, self._offsets, lo, out))

    def _result(self, F, surv, acc, m: int, stream) -> Filtered:
        count, ids, rows, removed = self._back.host
        count = int(count[0])
        removed = removed[:m].astype(bool)
        if count <= self.rows_back:
            return Filtered(ids[:count].copy(), rows[:count].copy(), removed)
        with stream:  # a second copy, of all of them
            ids = surv[acc[:count]]
            return Filtered(ids.get(stream), F[ids].get(stream), removed)

    def _checked(self, F):
        if F.ndim != 2 or F.shape[1] != self.n_obj or F.dtype != self.dtype:
            raise ValueError(f"expected an (N, {self.n_obj}) {self.dtype} array, got {F.shape} {F.dtype}")
        return import_cupy().ascontiguousarray(F)


@cache
def _filter(n_obj: int, dtype: np.dtype) -> GpuFilter:
    return GpuFilter(n_obj, dtype)


def filter_candidates(F, A, stream=None) -> Filtered:
    """The candidates F (N, k) that the archive A (M, k) accepts, and the members they remove; both
    CuPy arrays of one dtype. See the module docstring."""
    return _filter(F.shape[1], F.dtype)(F, A, stream)


class DeviceArchive:
    """Members' objective vectors, kept on the device between batches in the host Archive's order:
    the members that stay, then the accepted candidates. Capacity doubles as the archive grows."""

    def __init__(self, n_obj: int, dtype, capacity: int = 1024, chunk: int = CHUNK, rows_back: int = ROWS_BACK):
        self.filter = GpuFilter(n_obj, dtype, chunk, rows_back)
        self._F = import_cupy().empty((capacity, n_obj), dtype=dtype)
        self.size = 0

    def __len__(self) -> int:
        return self.size

    @property
    def F(self):
        """(size, k) on the device: a view that the next update may overwrite."""
        return self._F[:self.size]

    def add(self, F, stream=None) -> Filtered:
        """Filter candidates F (N, k) on the device against the members, then update the members."""
        result = self.filter(F, self.F, stream)
        self.update(result.F, result.removed, stream)
        return result

    def update(self, F_accepted: np.ndarray, removed: np.ndarray, stream=None) -> None:
        """Drop the removed members (M,) and append the accepted vectors (a, k), compacting on the device."""
        cupy = import_cupy()
        stay = np.flatnonzero(~removed)
        size = stay.size + len(F_accepted)
        with stream or cupy.cuda.get_current_stream():
            if stay.size < self.size:
                self._F[:stay.size] = self.F[cupy.asarray(stay)]
            if size > len(self._F):
                grown = cupy.empty((_doubled(len(self._F), size), self.filter.n_obj), dtype=self._F.dtype)
                grown[:stay.size] = self._F[:stay.size]
                self._F = grown
            if len(F_accepted):
                self._F[stay.size:size].set(np.ascontiguousarray(F_accepted, dtype=self._F.dtype))
        self.size = size


def _doubled(capacity: int, size: int) -> int:
    capacity = max(capacity, 1)
    while capacity < size:
        capacity *= 2
    return capacity
