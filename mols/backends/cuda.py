"""CuPy plumbing: device discovery, kernel compilation from .cu files, pinned host<->device buffers."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from mols.errors import BackendError, MolsError
from mols.memory import check_fits, nbytes, size_text

ALIGN = 16  # bytes; every array in a packed buffer starts on this boundary
C_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long", np.dtype(np.float64): "double"}  # FVAL of a dtype


def import_cupy():
    """CuPy, or BackendError if it is missing or finds no CUDA device (asked once per process)."""
    cupy, missing = _cupy_or_why_not()
    if missing is not None:
        raise BackendError(missing)
    return cupy


@cache
def _cupy_or_why_not() -> tuple[object, str | None]:
    try:
        import cupy
    except ImportError:
        return None, "backend 'gpu' needs CuPy: pip install 'mols[gpu]'"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError as err:
        return None, f"backend 'gpu': CuPy finds no CUDA device ({err})"
    return (cupy, None) if count else (None, "backend 'gpu': CuPy finds no CUDA device")


def gpu_available() -> bool:
    try:
        import_cupy()
    except BackendError:
        return False
    return True


def gpu_name() -> str:
    return device_name(import_cupy().cuda.Device().id)


@cache
def device_name(device: int) -> str:
    """The name of CUDA device `device`, asked once (getDeviceProperties takes milliseconds; every evaluator,
    the tuner's candidates too, names its device)."""
    return import_cupy().cuda.runtime.getDeviceProperties(device)["name"].decode()


def kernel_source(defines: dict[str, int | str], *parts: str) -> str:
    """#define lines, then the given sources concatenated (headers first: CuPy's cache sees them)."""
    head = "".join(f"#define {key} {value}\n" for key, value in defines.items())
    return head + "\n".join(parts)


@cache
def compile_module(source: str):
    """`source` compiled once per process (CuPy also caches on disk)."""
    return import_cupy().RawModule(code=source, options=("--std=c++17",))


def compile_kernel(source: str, name: str):
    """The kernel `name` of `source`."""
    return compile_module(source).get_function(name)


def device_array(shape, dtype, what: str, fill=None):
    """cupy.empty (or cupy.full with `fill`), refused with the estimate where the device has too little
    memory free (check_fits), instead of CuPy's OutOfMemoryError."""
    cupy = import_cupy()
    needed = nbytes(shape, dtype)
    free = cupy.cuda.runtime.memGetInfo()[0] + cupy.get_default_memory_pool().free_bytes()
    check_fits(needed, what, free, "GPU memory")
    try:
        return cupy.empty(shape, dtype) if fill is None else cupy.full(shape, fill, dtype)
    except cupy.cuda.memory.OutOfMemoryError:
        raise MolsError(f"{what} would take {size_text(needed)} of GPU memory, which could not be allocated; "
                        "choose a smaller instance or neighborhood") from None


def device_copy(array: np.ndarray, what: str):
    """`array` copied to the device, refused like device_array where the device has too little memory free."""
    out = device_array(array.shape, array.dtype, what)
    out.set(np.ascontiguousarray(array))
    return out


def pinned_array(shape, dtype, what: str) -> np.ndarray:
    """A host array in pinned (page-locked) memory, after check_fits."""
    import cupyx

    check_fits(nbytes(shape, dtype), what)
    return cupyx.empty_pinned(shape, dtype=dtype)


def packed_offsets(layout: list[tuple[tuple[int, ...], np.dtype]]) -> list[int]:
    """Where each array of a packed buffer starts, each on an ALIGN boundary, and (last) the buffer's bytes."""
    return [0, *itertools.accumulate(-(-nbytes(shape, dtype) // ALIGN) * ALIGN for shape, dtype in layout)]


def packed_nbytes(layout: list[tuple[tuple[int, ...], np.dtype]]) -> int:
    """The bytes of a packed buffer of these arrays."""
    return packed_offsets(layout)[-1]


class PackedBuffers:
    """Arrays of several shapes and dtypes in one pinned host block and one device block,
    so that moving all of them is a single asynchronous copy."""

    def __init__(self, layout: list[tuple[tuple[int, ...], np.dtype]], host: PackedBuffers | None = None):
        """`host`: buffers of the same layout (on another device) whose pinned host block these share."""
        cupy = import_cupy()
        *offsets, total = packed_offsets(layout)  # once: a layout of many lanes has thousands of arrays
        self.nbytes = total
        check_fits(total, "a solution's state")
        if host is None:
            self._pinned = cupy.cuda.alloc_pinned_memory(total)
            self.host_flat = np.frombuffer(self._pinned, dtype=np.uint8, count=total)
            self.host_flat[:] = 0  # pinned memory comes uninitialised; counters in it must start at 0
        else:
            self.host_flat = host.host_flat
        self.device_flat = device_array(total, np.uint8, "a solution's state")
        self.host = tuple(_view(self.host_flat, o, s, d) for o, (s, d) in zip(offsets, layout))
        self.device = tuple(_view(self.device_flat, o, s, d) for o, (s, d) in zip(offsets, layout))

    def upload(self, stream) -> None:
        runtime = import_cupy().cuda.runtime
        dst, src = self.device_flat.data.ptr, self.host_flat.ctypes.data
        runtime.memcpyAsync(dst, src, self.nbytes, runtime.memcpyHostToDevice, stream.ptr)

    def download(self, stream) -> None:
        runtime = import_cupy().cuda.runtime
        dst, src = self.host_flat.ctypes.data, self.device_flat.data.ptr
        runtime.memcpyAsync(dst, src, self.nbytes, runtime.memcpyDeviceToHost, stream.ptr)


def _view(flat, offset: int, shape: tuple[int, ...], dtype: np.dtype):
    return flat[offset:offset + nbytes(shape, dtype)].view(dtype).reshape(shape)


class DeviceQueue:
    """Work on the device in order, on one CUDA stream of its own (or the current one, `current()`): kernels, copies,
    graphs and waits go through these verbs, so that nothing outside backends/ touches a stream."""

    def __init__(self, stream=None):
        self._stream = import_cupy().cuda.Stream(non_blocking=True) if stream is None else stream

    @classmethod
    def current(cls) -> DeviceQueue:
        """A queue on CuPy's current stream."""
        return cls(import_cupy().cuda.get_current_stream())

    def queued(self):
        """A context in which CuPy's work (kernel calls, array operations) goes to this queue."""
        return self._stream

    def run(self, kernel, grid: tuple, block: tuple, args: tuple) -> None:
        """A kernel launch on the queue."""
        with self._stream:
            kernel(grid, block, args)

    def replay(self, graph) -> None:
        """A CUDA graph (capture's) replayed on the queue."""
        graph.launch(self._stream)

    def synchronize(self) -> None:
        """Wait for all the work queued so far."""
        self._stream.synchronize()

    def record(self, event) -> None:
        """`event` marks the work queued so far."""
        event.record(self._stream)

    def upload(self, buffers: PackedBuffers) -> None:
        buffers.upload(self._stream)

    def download(self, buffers: PackedBuffers) -> None:
        buffers.download(self._stream)

    def copy(self, target: int, source: int, nbytes: int, kind: str) -> None:
        """An asynchronous copy of nbytes between addresses, `kind` "up" (host to device) or "down"."""
        runtime = import_cupy().cuda.runtime
        direction = runtime.memcpyHostToDevice if kind == "up" else runtime.memcpyDeviceToHost
        runtime.memcpyAsync(target, source, nbytes, direction, self._stream.ptr)

    def zero(self, array) -> None:
        """The device array's bytes set to 0, queued."""
        import_cupy().cuda.runtime.memsetAsync(array.data.ptr, 0, array.nbytes, self._stream.ptr)

    def get(self, array) -> np.ndarray:
        """The device array on the host, once the work queued before is done."""
        with self._stream:
            return array.get(stream=self._stream)

    def set(self, array, host: np.ndarray) -> None:
        """The device array's rows written from `host`, queued."""
        array.set(host, stream=self._stream)

    def capture(self, enqueue):
        """A CUDA graph of what enqueue() queues (nothing may allocate meanwhile)."""
        self._stream.begin_capture()
        try:
            enqueue()
        finally:
            graph = self._stream.end_capture()
        return graph
