"""The machine and versions a measurement or a run was made with."""

from __future__ import annotations

import datetime as dt
import os
import platform

import numba
import numpy as np

import mols
from mols.backends.cuda import gpu_available


def environment() -> dict[str, str]:
    info = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
        "numba threads (all cores)": str(numba.config.NUMBA_NUM_THREADS),
        "python": platform.python_version(),
        "mols": mols.__version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
    }
    if gpu_available():
        import cupy

        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        info["gpu"] = f"{props['name'].decode()}, {props['multiProcessorCount']} SMs"
        info["cupy"] = cupy.__version__
        info["cuda runtime"] = str(cupy.cuda.runtime.runtimeGetVersion())
        info["cuda driver"] = str(cupy.cuda.runtime.driverGetVersion())
    else:
        info["gpu"] = "none"
    return info
