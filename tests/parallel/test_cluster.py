"""A local cluster whose workers do not start in time: a MolsError that says how many did, not Dask's traceback."""

from __future__ import annotations

import pytest

from mols.errors import MolsError
from mols.parallel.cluster import open_client

distributed = pytest.importorskip("distributed")


def test_local_workers_that_do_not_start_in_time_give_an_error_naming_the_count(monkeypatch, tmp_path):
    def late(client, n_workers, timeout=None):  # Dask's wait where none of the workers has joined in time
        raise distributed.exceptions.WorkerStartTimeoutError(0, n_workers, timeout)

    monkeypatch.setattr(distributed.Client, "wait_for_workers", late)
    expected = r"started 0 of its 1 workers within 120 s \(their messages: .*dask.log\)"
    with pytest.raises(MolsError, match=expected), open_client(None, "cpu", 1, log=tmp_path / "dask.log"):
        pass
