"""Numba kernels cached on disk across processes, also those a factory makes (closures over other kernels)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numba
import numpy as np
from filelock import FileLock
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.dispatcher import Dispatcher

# Work items of a parallel kernel: every thread Numba may run, a constant so the kernel can be cached (a call of
# numba.get_num_threads() inside a kernel is a process address, which Numba refuses to cache).
THREADS = numba.config.NUMBA_NUM_THREADS


class LockedCacheFile(IndexDataCacheFile):
    """Numba's index and data files, read and written under a file lock: processes compiling at once (Dask workers)
    would otherwise pick the same data file for different keys, and one key would load the other's kernel."""

    def __init__(self, cache_path, filename_base, source_stamp):
        super().__init__(cache_path, filename_base, source_stamp)
        self.lock = FileLock(f"{self._index_path}.lock")

    def save(self, key, data):
        with self.lock:
            super().save(key, data)

    def load(self, key):
        with self.lock:
            return super().load(key)


class KeyedCache(FunctionCache):
    """Numba's cache, keyed by the code and by a description of what the function closes over. (Numba keys a
    closure by a pickle of its cells, which holds each captured kernel's random per-process id: it never hits.)"""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = LockedCacheFile(self._cache_path, self._impl.filename_base,
                                           self._impl.locator.get_source_stamp())

    def _index_key(self, sig, codegen):
        described = f"{closure_key(self._py_func)}|threads={THREADS}"
        return sig, codegen.magic_tuple(), (_sha(self._py_func.__code__.co_code), _sha(described.encode()))


def cached_njit(fn: Callable | None = None, **options):
    """`numba.njit(**options)` with a KeyedCache: `@cached_njit` or `@cached_njit(parallel=True)`. Values it may
    close over: kernels, numbers, strings, dtypes and tuples of them."""

    def wrap(function: Callable) -> Dispatcher:
        key = closure_key(function)  # a value that cannot be described is a TypeError now, not a stale cache later
        if function.__closure__:
            # Numba names machine code by the function's qualified name and a per-process counter: two closures of one
            # factory, each compiled first in its own process, shared a symbol, and a process that loaded both from
            # the cache ran the first one's code for both. Named by what they close over, they differ.
            function.__qualname__ += "_" + _sha(key.encode())[:16]
        kernel = numba.njit(**options)(function)
        kernel._cache = KeyedCache(function)
        return kernel

    return wrap(fn) if fn is not None else wrap


def closure_key(function: Callable) -> str:
    """What `function` closes over, as text that is the same in every process for the same values and code."""
    return ",".join(_describe(cell.cell_contents) for cell in function.__closure__ or ())


def _describe(value) -> str:
    if isinstance(value, Dispatcher):
        code = value.py_func.__code__
        source = _sha(code.co_code + repr(code.co_consts).encode())
        return f"{value.py_func.__module__}.{value.py_func.__qualname__}:{source}[{closure_key(value.py_func)}]"
    if isinstance(value, tuple):
        return "(" + ",".join(map(_describe, value)) + ")"
    if isinstance(value, (bool, int, float, str, np.generic, np.dtype, type(None))):
        return repr(value)
    if isinstance(value, type) and issubclass(value, np.generic):
        return value.__name__
    raise TypeError(f"cached_njit: cannot key a closure over {type(value).__name__}")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
