"""The CPU backend's incremental evaluation equals the full reference evaluation for every neighbor."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from mols.backends import BackendSpec, gpu_available, prepare
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance, with_moves

SHAPES = [(2, 1), (2, 4), (3, 1), (4, 2), (7, 1), (9, 5), (16, 20), (33, 3)]


def all_neighbors(nbh, x):
    return np.stack([nbh.apply(x, t) for t in range(nbh.n_neighbors(len(x)))])


@pytest.mark.parametrize("name, n, m", with_moves(sorted(Flowshop.neighborhoods), SHAPES))
def test_cpu_equals_full_evaluation(rng, name, n, m):
    pb, nbh = Flowshop(random_instance(rng, n, m)), NEIGHBORHOODS[name]
    cpu = prepare(pb, nbh, "cpu")
    for _ in range(3):  # successive solutions through the same buffers
        x = pb.random_solution(rng)
        np.testing.assert_array_equal(cpu.evaluate(x), pb.evaluate(all_neighbors(nbh, x)))


@pytest.mark.parametrize("name", sorted(Flowshop.neighborhoods))
def test_cpu_equals_full_evaluation_int64(rng, name):
    pb, nbh = Flowshop(random_instance(rng, 12, 4, p_max=10**8)), NEIGHBORHOODS[name]
    x = pb.random_solution(rng)
    F = prepare(pb, nbh, "cpu").evaluate(x)
    assert F.dtype == np.int64 and F[:, 1].max() > np.iinfo(np.int32).max
    np.testing.assert_array_equal(F, pb.evaluate(all_neighbors(nbh, x)))


@pytest.mark.parametrize("name", sorted(Flowshop.neighborhoods))
def test_bundled_instance_one_core_equals_all_cores(rng, name):
    pb, nbh = load_problem("flowshop", "050_10_01"), NEIGHBORHOODS[name]
    x = pb.random_solution(rng)
    all_cores = prepare(pb, nbh, "cpu").evaluate(x).copy()
    one_core = prepare(pb, nbh, BackendSpec("cpu", threads=1)).evaluate(x)
    np.testing.assert_array_equal(one_core, all_cores)
    np.testing.assert_array_equal(all_cores, pb.evaluate(all_neighbors(nbh, x)))


def test_threads_out_of_range():
    pb = load_problem("flowshop", "020_05_01")
    with pytest.raises(MolsError, match="--threads"):
        prepare(pb, NEIGHBORHOODS["swap"], BackendSpec("cpu", threads=numba.config.NUMBA_NUM_THREADS + 1))


def test_backend_specs_resolve_once():
    assert BackendSpec("cpu").resolved().device == "cpu"
    assert BackendSpec("auto").resolved().device == ("gpu" if gpu_available() else "cpu")
    assert BackendSpec("auto").resolved().archive == BackendSpec("auto").resolved().device
    with pytest.raises(MolsError, match="unknown backend"):
        BackendSpec("tpu")
    with pytest.raises(MolsError, match="^archive gpu: choose cpu"):
        BackendSpec("cpu", archive="gpu")


def test_labels_name_what_differs():
    assert [BackendSpec(*args, **kw).resolved().label for args, kw in (
        (("cpu",), {}), (("cpu", 1), {}), (("cpu", 1), {"incremental": False}), (("gpu",), {}),
        (("gpu",), {"archive": "cpu"}), (("gpu",), {"device_walk": False}))] == [
        "cpu", "cpu x1", "cpu x1 plain", "gpu", "gpu+host archive", "gpu host walk"]
    pb = load_problem("flowshop", "020_05_01")
    assert prepare(pb, NEIGHBORHOODS["swap"], "cpu").label == f"cpu x{numba.config.NUMBA_NUM_THREADS}"


def test_gpu_request_without_device_is_a_clear_error():
    if gpu_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(MolsError, match="gpu"):
        prepare(load_problem("flowshop", "020_05_01"), NEIGHBORHOODS["swap"], "gpu")
