"""A neighborhood split over GPUs, what the CPU can check: the shares of the ids, the host's combination of the
devices' pairs (the same choice as over the whole F), and --gpus refused where it cannot run."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from typer.testing import CliRunner

import mols
from mols.algorithms.tabu.select import best_admissible, best_pairs, chosen, combine_pairs
from mols.backends import BackendSpec
from mols.backends.split import shares
from mols.cli import app
from mols.errors import OptionError
from mols.runner import RunConfig
from tests.backends.test_chunked import selection_cases


@pytest.mark.parametrize("n, parts", [(1, 1), (7, 2), (10, 4), (4_999_950_000, 4), (5, 5)])
def test_shares_cover_every_id_once_in_order(n, parts):
    got = shares(n, parts)
    assert len(got) == parts and got[0].start == 0 and got[-1].stop == n
    assert all(a.stop == b.start for a, b in itertools.pairwise(got))
    assert max(len(r) for r in got) - min(len(r) for r in got) <= 1


def device_pairs(F, c, forbidden, step, threshold, share):
    """What select_pairs gives for one device's share: its best admissible pair (NO_ID: any id, score inf, where
    there is none) and its best pair, with global ids."""
    b, bs, a, as_ = best_pairs(F[share], c, forbidden[share], step, threshold)
    no_id = np.iinfo(np.int64).max
    return [share.start + b if b >= 0 else no_id, share.start + a], [bs, as_]


@pytest.mark.parametrize("parts", [2, 3, 4])
def test_combined_pairs_choose_as_the_whole_f(rng, parts):
    """Few distinct values, so that ties across shares are common: the lowest id wins them as over the whole F."""
    F = rng.integers(0, 4, size=(1000, 2))
    c = np.array([0.5, 0.25])
    for step, threshold, forbidden in selection_cases(rng, len(F)):
        pairs = [device_pairs(F, c, forbidden, step, threshold, share) for share in shares(len(F), parts)]
        ids = np.array([p[0] for p in pairs], dtype=np.int64)
        scores = np.array([p[1] for p in pairs])
        assert chosen(*combine_pairs(ids, scores)) == best_admissible(F, c, forbidden, step, threshold)


def test_the_spec_refuses_gpus_on_the_cpu():
    with pytest.raises(OptionError, match="gpus 2 splits the gpu backend's neighborhoods; this run is on the cpu"):
        BackendSpec("cpu", gpus=2)
    with pytest.raises(OptionError, match="gpus must be at least 1, got 0"):
        BackendSpec("gpu", gpus=0)
    assert BackendSpec("gpu", gpus=2).label == "gpu x2" and BackendSpec("gpu").label == "gpu"


def test_the_run_refuses_gpus_for_pls_and_on_the_cpu():
    with pytest.raises(OptionError) as err:
        RunConfig("020_05_01", backend="gpu", gpus=2)  # PLS by default
    assert err.value.parameter == "gpus" and "only tabu, its, hc, ils" in str(err.value)
    with pytest.raises(OptionError) as err:
        mols.solve(mols.load_problem("flowshop", "020_05_01"), neighborhood="insertion", algorithm="tabu", backend="cpu",
                   gpus=2, iterations=5)
    assert err.value.parameter == "gpus"


def test_cli_names_the_flag_without_a_traceback():
    result = CliRunner().invoke(app, ["run", "020_05_01", "-a", "tabu", "-b", "cpu", "--gpus", "2", "-i", "5"])
    assert result.exit_code == 1
    assert "--gpus 2 splits the gpu backend's neighborhoods; this run is on the cpu" in result.output
    assert "Traceback" not in result.output
    assert RunConfig("020_05_01", algorithm="tabu", backend="gpu", gpus=2).spec.gpus == 2
