"""Non-dominated archives: the host Archive (NumPy and Numba), the device ones with its contract
(gpu_filter.py, device.py, mirrored.py, resident.py), and the start archives of Pareto local search
(local.py)."""

from __future__ import annotations

from mols.archive.host import Archive, dominates, nondominated
from mols.archive.local import HostStart, start_archive

__all__ = ["Archive", "HostStart", "dominates", "nondominated", "start_archive"]
