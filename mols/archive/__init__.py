"""Non-dominated archives, data structures that drive nothing: the host Archive (NumPy and Numba), the device forms
with its contract (gpu_filter.py, device.py, mirrored.py, resident.py) and the lanes' archives (lanes.py)."""

from __future__ import annotations

from mols.archive.host import Archive, dominates, nondominated

__all__ = ["Archive", "dominates", "nondominated"]
