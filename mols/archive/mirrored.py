"""A host Archive whose objective vectors are mirrored on the device, so that candidates evaluated there are
filtered there (gpu_filter.py) and only the accepted ones come back: `offer_device(F)`, then `commit`."""

from __future__ import annotations

import numpy as np

from mols.archive.device import DeviceArchive
from mols.archive.gpu_filter import Filtered
from mols.archive.host import Archive
from mols.backends.cuda import DeviceQueue, import_cupy


class MirroredArchive(Archive):
    """Archive with the same contract and member order; F also lives on the device (device.F)."""

    def __init__(self, n_obj: int, n_var: int, dtype=np.int64, solution_dtype=np.int32,
                 queue: DeviceQueue | None = None, capacity: int = 1024):
        super().__init__(n_obj, n_var, dtype, solution_dtype)
        self.device = DeviceArchive(n_obj, dtype, capacity)
        self.queue = queue  # where the device's filter runs (None: the current stream)

    def clear(self) -> None:
        super().clear()
        self.device.clear()

    def hold(self, F: np.ndarray, X: np.ndarray, visited: np.ndarray) -> None:
        """As Archive.hold, the vectors mirrored on the device."""
        super().hold(F, X, visited)
        self.device.hold(self.F, DeviceQueue.current() if self.queue is None else self.queue)

    def add(self, F: np.ndarray, X: np.ndarray) -> np.ndarray:
        """As Archive.add, for candidates on the host."""
        result = self.offer_device(import_cupy().asarray(np.ascontiguousarray(F, dtype=self.F.dtype)))
        self.commit(result, np.asarray(X)[result.ids])
        return result.accepted(len(F))

    def offer_device(self, F_dev) -> Filtered:
        """Step 1, on the device: the candidates F_dev (N, k) accepted, and the members they remove;
        the device's copy of the members is updated already. Call commit next."""
        return self.device.add(F_dev, self.queue)

    def commit(self, result: Filtered, X_new: np.ndarray) -> None:
        """Step 2, on the host: the same update, with the accepted candidates' solutions X_new."""
        if len(result.ids):
            self.replace(~result.removed, result.F, X_new)
