"""MirroredArchive (host members, vectors mirrored on the device) behaves as the host Archive."""

from __future__ import annotations

import numpy as np
import pytest

from mols.archive import Archive

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("k, dtype", [(2, np.int32), (3, np.int64)])
def test_same_members_order_and_acceptance_as_the_host_archive(rng, k, dtype):
    import cupy

    from mols.archive.device import MirroredArchive

    host, mirrored = Archive(k, 4, dtype), MirroredArchive(k, 4, dtype)
    for step in range(60):
        F = rng.integers(0, 6 + step // 6, size=(int(rng.integers(0, 30)), k)).astype(dtype)
        X = rng.integers(0, 100, size=(len(F), 4))
        if step % 2:
            np.testing.assert_array_equal(mirrored.add(F, X), host.add(F, X))
        else:  # the two-step path PLS takes, with the candidates on the device
            result = mirrored.filter(cupy.asarray(F))
            mirrored.commit(result, X[result.ids])
            np.testing.assert_array_equal(result.ids, np.flatnonzero(host.add(F, X)))
        mirrored.visited[:] = host.visited[:] = rng.random(len(host)) < 0.5
        for part in ("F", "X", "visited"):
            np.testing.assert_array_equal(getattr(mirrored, part), getattr(host, part))
        np.testing.assert_array_equal(mirrored.device.F.get(), host.F)
