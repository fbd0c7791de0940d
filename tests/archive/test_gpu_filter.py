"""The GPU non-dominance filter equals the host archive update (Archive.add), on the device only:
small integer ranges so that ties and weak dominance are common, k = 2 and 3, int32 and int64."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mols.archive import Archive, nondominated
from mols.archive.device import DeviceArchive
from mols.archive.gpu_filter import BLOCK, GpuFilter, filter_candidates
from mols.backends import prepare
from mols.backends.cuda import DeviceQueue, import_cupy
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import read_flowshop, resolve_instance
from mols.problems.flowshop.model import Flowshop

pytestmark = pytest.mark.gpu
DTYPES = [np.int32, np.int64]


def host_update(F: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(accepted (N,), removed (M,)) when a host Archive holding A is offered F."""
    archive = Archive(F.shape[1], 1, dtype=F.dtype)
    archive.F = A.copy()
    return archive.verdict(F)


@cache
def gpu_filter(k: int, dtype, chunk: int, rows_back: int) -> GpuFilter:
    return GpuFilter(k, dtype, chunk=chunk, rows_back=rows_back)


def assert_same(F: np.ndarray, A: np.ndarray, chunk: int = 1 << 20, rows_back: int = 1024) -> None:
    cupy = import_cupy()
    got = gpu_filter(F.shape[1], F.dtype, chunk, rows_back)(cupy.asarray(F), cupy.asarray(A))
    accepted, removed = host_update(F, A)
    np.testing.assert_array_equal(got.ids, np.flatnonzero(accepted))
    np.testing.assert_array_equal(got.F, F[accepted])
    np.testing.assert_array_equal(got.removed, removed)
    assert got.ids.dtype == np.int64 and got.F.dtype == F.dtype and got.removed.dtype == bool


def front(F: np.ndarray) -> np.ndarray:
    return F[nondominated(F)]


def points(rng, n: int, k: int, high: int, dtype, plane: bool) -> np.ndarray:
    """n integer vectors in 0..high, or close to the plane where they sum to high (k - 1): many are then
    mutually non-dominated, so fronts span several tiles."""
    P = rng.integers(0, high + 1, size=(n, k))
    if plane:
        P[:, -1] = high * (k - 1) - P[:, :-1].sum(axis=1) + rng.integers(0, 3, size=n)
    return P.astype(dtype)


@st.composite
def cases(draw):
    k = draw(st.sampled_from([2, 3]))
    dtype = draw(st.sampled_from(DTYPES))
    rows = st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), max_size=40)
    F = np.array(draw(rows), dtype=dtype).reshape(-1, k)
    A = np.array(draw(rows), dtype=dtype).reshape(-1, k)
    return F, (front(A) if draw(st.booleans()) else A)  # the contract holds for any A


@settings(deadline=None, max_examples=300)
@given(cases(), st.sampled_from([1, 5, BLOCK, 1 << 20]), st.sampled_from([1, 3, 1024]))
def test_equals_host_archive_small(case, chunk, rows_back):
    assert_same(*case, chunk=chunk, rows_back=rows_back)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("high", [1, 3, 20, 1000])
@pytest.mark.parametrize("plane", [False, True])
def test_equals_host_archive_random(rng, k, dtype, high, plane):
    """Sizes across several blocks and tiles; chunks of 300 and a 5-row first copy on every other case."""
    for trial in range(10):
        F = points(rng, rng.integers(0, 3000), k, high, dtype, plane)
        A = front(points(rng, rng.integers(0, 2000), k, high, dtype, plane))
        small = trial % 2
        assert_same(F, A, chunk=300 if small else 1 << 20, rows_back=5 if small else 1024)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("dtype", DTYPES)
def test_edge_cases(k, dtype):
    same = np.full((700, k), 2, dtype=dtype)
    empty = np.empty((0, k), dtype=dtype)
    one = np.full((1, k), 2, dtype=dtype)
    for F, A in [(same, empty), (same, one), (same, one - 1), (same, one + 1), (one, empty), (one, one), (one, same),
                 (empty, empty), (empty, same[:3]), (same, same[:1] + np.eye(k, dtype=dtype))]:
        for chunk in (7, 1 << 20):
            assert_same(F, A, chunk=chunk)


def test_int64_beyond_int32():
    """Values that only 64-bit comparisons tell apart."""
    big = 1 << 40
    F = np.array([[big, 5, 1], [big + 1, 4, 1], [big - 1, 9, 9], [5, big, 3]], dtype=np.int64)
    A = np.array([[big + (1 << 33), 0, 0], [6, big - 1, 3], [big, 5, 2]], dtype=np.int64)
    assert_same(F, A)
    assert_same(F + (1 << 32), A)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("dtype", DTYPES)
def test_more_survivors_than_chunks(rng, k, dtype):
    """Thousands of survivors from an empty archive, many chunks (and one chunk of all): survivors checked
    across all of them."""
    F = points(rng, 20_000, k, 60, dtype, plane=True)
    assert_same(F, F[:0], chunk=999, rows_back=64)
    assert_same(F, front(F[::7]), chunk=4096)
    assert_same(F, F[:0], chunk=1 << 20)


def test_function_api_and_dtype_check(rng):
    cupy = import_cupy()
    F, A = points(rng, 500, 3, 5, np.int64, plane=False), front(points(rng, 300, 3, 5, np.int64, plane=False))
    F_dev, A_dev = cupy.asarray(F), cupy.asarray(A)
    cupy.cuda.Device().synchronize()  # the uploads ran on the default stream
    got = filter_candidates(F_dev, A_dev, queue=DeviceQueue())  # on a queue of its own
    accepted, removed = host_update(F, A)
    np.testing.assert_array_equal(got.ids, np.flatnonzero(accepted))
    np.testing.assert_array_equal(got.removed, removed)
    with pytest.raises(ValueError):
        filter_candidates(cupy.asarray(F), cupy.asarray(A.astype(np.int32)))


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("dtype", DTYPES)
def test_device_archive_follows_host_archive(rng, k, dtype):
    """Many batches: same accepted ids, same removed members, same members in the same order."""
    cupy = import_cupy()
    device = DeviceArchive(k, dtype, capacity=4, chunk=500, rows_back=16)
    host = Archive(k, 1, dtype=dtype)
    for step in range(80):
        level = 200 - 2 * step  # the batches drift towards the origin, so members keep leaving
        F = points(rng, rng.integers(0, 1500), k, 40, dtype, plane=True)
        F[:, -1] += level - 40 * (k - 1)
        before = host.F.copy()
        got = device.add(cupy.asarray(F))
        accepted = host.add(F, np.zeros((len(F), 1), dtype=np.int32))
        np.testing.assert_array_equal(got.ids, np.flatnonzero(accepted))
        members = {tuple(row) for row in host.F.tolist()}  # equal vectors never both stay: a row is a member
        np.testing.assert_array_equal(got.removed, [tuple(row) not in members for row in before.tolist()])
        np.testing.assert_array_equal(device.F.get(), host.F)
    assert len(device) == len(host) > 0


@pytest.mark.parametrize("instance", ["020_10_01", "100_20_01"])
def test_flowshop_neighborhood_on_the_device(rng, instance):
    """F straight from the evaluation kernel, on the evaluator's queue, against the front of another neighborhood."""
    problem = Flowshop(read_flowshop(resolve_instance(instance)))
    gpu = prepare(problem, NEIGHBORHOODS["insertion"], "gpu")
    cupy = import_cupy()
    A = front(gpu.evaluate(problem.random_solution(rng)).copy())
    A_dev = cupy.asarray(A)
    cupy.cuda.Device().synchronize()  # the upload ran on the default stream
    x = problem.random_solution(rng)
    got = filter_candidates(gpu.evaluate_device(x), A_dev, queue=gpu)
    accepted, removed = host_update(gpu.evaluate(x).copy(), A)
    np.testing.assert_array_equal(got.ids, np.flatnonzero(accepted))
    np.testing.assert_array_equal(got.removed, removed)
