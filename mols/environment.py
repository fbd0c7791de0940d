"""The machine and versions a measurement or a run was made with."""

from __future__ import annotations

import datetime as dt
import os
import platform
from functools import cache

import numba
import numpy as np

import mols
from mols.backends.cuda import gpu_available


def environment() -> dict[str, str]:
    """The date, then the machine and versions (asked once per process and GPU: every run.json of a batch of a
    thousand searches names them, and the device's properties take milliseconds to ask)."""
    device = None
    if gpu_available():
        import cupy

        device = cupy.cuda.Device().id
    return {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), **_machine(device)}


@cache
def _machine(device: int | None) -> dict[str, str]:
    info = {
        "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
        "numba threads (all cores)": str(numba.config.NUMBA_NUM_THREADS),
        "python": platform.python_version(),
        "mols": mols.__version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
    }
    if device is None:
        return info | {"gpu": "none"}
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(device)
    return info | {"gpu": f"{props['name'].decode()}, {props['multiProcessorCount']} SMs", "cupy": cupy.__version__,
                   "cuda runtime": str(cupy.cuda.runtime.runtimeGetVersion()),
                   "cuda driver": str(cupy.cuda.runtime.driverGetVersion())}
