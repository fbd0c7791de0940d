"""Arrays that may not fit: each large array is checked against the memory available now (MemAvailable on Linux)
and refused before allocation with an error that names what needed it and how much, instead of a MemoryError."""

from __future__ import annotations

import math
import os

import numpy as np

from mols.errors import MolsError

GIB = 1 << 30


def available_bytes() -> int:
    """Host memory available to a new allocation now (MemAvailable; the free pages where it is missing)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62  # unknown: let the allocation decide


def size_text(nbytes: float) -> str:
    return f"{nbytes / GIB:.1f} GiB" if nbytes >= GIB / 10 else f"{nbytes / (1 << 20):.1f} MiB"


def nbytes(shape, dtype) -> int:
    """Bytes of an array of this shape (an int, or a tuple) and dtype, in Python ints (no overflow)."""
    return math.prod(map(int, shape if isinstance(shape, tuple | list) else (shape,))) * np.dtype(dtype).itemsize


def check_fits(needed: int, what: str, available: int | None = None, where: str = "memory") -> None:
    """MolsError unless `needed` bytes fit in what is available (host memory by default)."""
    available = available_bytes() if available is None else available
    if needed > available:
        raise MolsError(f"{what} would take {size_text(needed)} of {where}, more than the {size_text(available)} "
                        "available; choose a smaller instance or neighborhood")


def host_array(shape, dtype, what: str, fill=None) -> np.ndarray:
    """np.empty (or np.full with `fill`) of that shape, after check_fits."""
    check_fits(nbytes(shape, dtype), what)
    try:
        return np.empty(shape, dtype) if fill is None else np.full(shape, fill, dtype)
    except MemoryError:
        raise MolsError(f"{what} would take {size_text(nbytes(shape, dtype))} of memory, which could not be "
                        "allocated; choose a smaller instance or neighborhood") from None
