"""Non-dominated archives: the host archive (NumPy and Numba)."""

from __future__ import annotations

from mols.archive.host import Archive, dominates, nondominated

__all__ = ["Archive", "dominates", "nondominated"]
