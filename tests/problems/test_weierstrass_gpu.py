"""The CUDA kernel (weierstrass.cu, one warp per neighbor) against its Numba twin, in both arithmetics and
dimensions below and above a warp's 32 lanes; and a tabu run on both backends.

The neighbors' points are the same doubles on both (crowns.py says how), so F differs only by the sums'
order (lanes, then a shuffle tree, against coordinate by coordinate) and by sin's last bits. Tolerances,
absolute, per coordinate: float64, 1e-9 (the differences are near 1e-15); float32, 5e-5 (emulating the
GPU's order of the float32 sums on the CPU gave at most 2.2e-6 per coordinate, and CUDA's sinf is within
2 ulp). Either is far below what a wrong point or a wrong arithmetic would give: float32 and float64
differ by 1e-2 per coordinate on average, and a point one bit off moves f by up to 1e-3."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.neighborhoods.crowns import PAPER_COUNT, crowns
from mols.problems.weierstrass import load_weierstrass

pytestmark = pytest.mark.gpu
ATOL = {"float64": 1e-9, "float32": 5e-5}


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n, count", [(1, 2048), (3, 2048), (10, PAPER_COUNT), (40, 1000), (100, 300)])
def test_gpu_equals_cpu(precision, n, count):
    nbh = crowns(count)
    problem = load_weierstrass(f"{n}:{precision}")
    cpu, gpu = mols.prepare(problem, nbh, "cpu"), mols.prepare(problem, nbh, "gpu")
    rng = np.random.default_rng(n)
    for r, x in enumerate((problem.random_solution(rng), problem.random_solution(rng), np.ones(n))):
        key = np.array([r, 7 + n], dtype=np.uint64)
        np.testing.assert_allclose(gpu.evaluate(x, key), cpu.evaluate(x, key), rtol=0, atol=ATOL[precision] * n)


def test_tabu_ends_at_the_same_solution_on_both_backends():
    """float64: the values agree to 1e-15, so both backends take the same moves (in float32 two neighbors
    within the tolerance of each other could be taken in either order)."""
    problem, nbh = load_weierstrass("3"), crowns(512)
    runs = [mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=60, seed=5, backend=backend)
            for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    np.testing.assert_allclose(runs[1].archive.F, runs[0].archive.F, rtol=0, atol=ATOL["float64"] * problem.n)
    np.testing.assert_array_equal(runs[1].archive.X, runs[0].archive.X)
