"""The GPU backend equals the CPU backend exactly (integer objectives), on the device only."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import prepare
from mols.backends.cuda import compile_kernel, import_cupy, kernel_source
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop
from tests.conftest import random_instance, with_moves

pytestmark = pytest.mark.gpu
SHAPES = [(2, 1), (2, 3), (3, 1), (7, 4), (20, 10), (33, 20), (64, 5), (101, 7)]


@pytest.mark.parametrize("name", sorted(NEIGHBORHOODS))
@pytest.mark.parametrize("n", [3, 9, 200, 1000, 6000])
def test_cuda_decode_equals_numba_decode(name, n):
    """The first 5,000 ids and 5,000 spread over all of them (to the last), for neighborhoods of up to 2e10 moves."""
    cupy = import_cupy()
    nbh = NEIGHBORHOODS[name]
    n_moves = nbh.n_neighbors(n)
    ids = np.unique(np.r_[0:min(n_moves, 5000), np.linspace(0, n_moves - 1, 5000).astype(np.int64)])
    source = kernel_source({}, nbh.cuda_source(), _decode_all_source())
    grid, d_ids = (-(-len(ids) // 256),), cupy.asarray(ids)
    out = cupy.full((len(ids), nbh.arity), -1, dtype=cupy.int32)
    compile_kernel(source, "decode_all")(grid, (256,), (np.int32(n), d_ids, np.int64(len(ids)), out))
    np.testing.assert_array_equal(out.get(), nbh.moves(ids, n))
    inverse = cupy.full(len(ids), -1, dtype=cupy.int64)
    compile_kernel(source, "inverse_all")(grid, (256,), (np.int32(n), d_ids, np.int64(len(ids)), inverse))
    np.testing.assert_array_equal(inverse.get(), [nbh.inverse(int(t), n) for t in ids])


@pytest.mark.parametrize("name, n, m", with_moves(sorted(Flowshop.neighborhoods), SHAPES))
def test_gpu_equals_cpu_random(rng, name, n, m):
    problem = Flowshop(random_instance(rng, n, m))
    _assert_same(problem, NEIGHBORHOODS[name], rng)


@pytest.mark.parametrize("name, instance", [(name, instance) for name in sorted(Flowshop.neighborhoods)
                                             for instance in ["020_10_01", "200_20_01", "ta111"]
                                             if name != "3exchange" or instance == "020_10_01"])  # n^3 moves
def test_gpu_equals_cpu_bundled(rng, name, instance):
    problem = Flowshop(read_flowshop(resolve_instance(instance)))
    _assert_same(problem, NEIGHBORHOODS[name], rng)


def test_gpu_equals_cpu_int64(rng):
    """Processing times so long that tardiness sums need int64 on both backends."""
    problem = Flowshop(random_instance(rng, 40, 6, p_max=10**8))
    assert problem.dtype == np.int64
    _assert_same(problem, NEIGHBORHOODS["insertion"], rng)


def test_device_result_equals_host_result(rng):
    problem = Flowshop(random_instance(rng, 30, 5))
    gpu = prepare(problem, NEIGHBORHOODS["insertion"], "gpu")
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(gpu.evaluate_device(x).get(), gpu.evaluate(x))


def _assert_same(problem, nbh, rng, repeats=3):
    cpu = prepare(problem, nbh, "cpu")
    gpu = prepare(problem, nbh, "gpu")
    for _ in range(repeats):  # successive solutions through the same buffers
        x = problem.random_solution(rng)
        F_gpu = gpu.evaluate(x)
        assert F_gpu.dtype == problem.dtype
        np.testing.assert_array_equal(F_gpu, cpu.evaluate(x))


def _decode_all_source() -> str:
    from mols.neighborhoods.base import HERE

    return (HERE / "decode_all.cu").read_text()
