"""A local cluster whose workers do not start, in time or at all (a script without a main guard): a MolsError that
says so, not Dask's traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.parametrize("executor, first", [("dask", "the local Dask cluster's workers failed to start"),
                                              ("processes", "a worker could not check the configuration (its worker died)")])
def test_a_script_without_a_main_guard_gets_an_error_that_says_how_to_call_mols(executor, first, tmp_path):
    script = tmp_path / "unguarded.py"  # as a newcomer writes README's example into a file
    script.write_text('import mols\n'
                      'mols.solve_many(mols.RunConfig("tai12a", problem="qap", algorithm="its", iterations=20), 2,\n'
                      f'                executor="{executor}", workers=1)\n')
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"mols.errors.MolsError: {first}")
    assert last.endswith('must call mols under `if __name__ == "__main__":`')
