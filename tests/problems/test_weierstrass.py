"""The Weierstrass problem on the CPU: reference values, float32 against float64 (measured), instance names,
the Numba kernel against the reference evaluation of the crowns neighbors, and tabu search."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mols
from mols.errors import MolsError
from mols.neighborhoods.adaptive import adaptive, scaled_key
from mols.neighborhoods.crowns import crowns
from mols.problems.weierstrass import instance_table, load_weierstrass
from mols.problems.weierstrass.instance import MINIMUM_PER_COORDINATE
from mols.problems.weierstrass.kernels import REDUCTION_SMAX, REDUCTION_SMIN, reduction_table
from mols.problems.weierstrass.model import TERMS

KEY = np.array([3, 9], dtype=np.uint64)
# Kernel against reference, |F - f| <= tolerance x n: float64, the same sums in the same order and libm's sin
# against NumPy's (the last bit); float32, NumPy's sinf and libm's differ by about an ulp per term (measured:
# up to 5e-7 per coordinate).
CPU_ATOL = {"float64": 1e-12, "float32": 5e-6}


def W(y, precision: str = "float64") -> np.ndarray:
    """One coordinate's value at each point of y, through the problem's reference evaluation."""
    y = np.atleast_1d(np.asarray(y, dtype=np.float64))
    return load_weierstrass(f"1:{precision}").evaluate(y[:, None])[:, 0]


def test_reference_values():
    """f(0) = 0; W(1) = 0.995386 and W is odd; the minimum, near -2 pi / 15, is about -2.81562
    (instances/weierstrass/SOURCE.md): the fractal puts it 1e-14 away from the double nearest -2 pi / 15."""
    assert load_weierstrass("5").evaluate(np.zeros(5))[0] == 0.0
    np.testing.assert_allclose(W([1.0, -1.0]), [0.995386, -0.995386], atol=1e-6)
    np.testing.assert_allclose(load_weierstrass("3").evaluate(np.ones(3)), [3 * 0.995386], atol=3e-6)
    c = -2 * math.pi / 15
    assert W(c)[0] == pytest.approx(-2.815549, abs=1e-6)
    assert W(c + np.linspace(-1e-13, 1e-13, 4001)).min() == pytest.approx(MINIMUM_PER_COORDINATE, abs=1e-5)
    assert W(np.linspace(-1, 1, 100_001)).min() > MINIMUM_PER_COORDINATE - 1e-5  # nothing on a grid is lower


def test_float32_arithmetic_differs_from_float64_by_a_measured_amount():
    """float32: x rounded to float32, then float32 terms and sums. Over a grid of [-1, 1] the values differ
    from float64's by 0.014 on average and at most 0.085 (measured): sin(2^i x) of the rounded x is
    another number once 2^i times the rounding error nears 1, and the terms there still weigh 2^(-i/4)."""
    y = np.linspace(-1, 1, 20_001)
    gap = np.abs(W(y, "float32") - W(y))
    assert 0.005 < gap.mean() < 0.03 and gap.max() < 0.1
    np.testing.assert_array_equal(W(y, "float32"), W(y.astype(np.float32), "float32"))


def test_instances_by_name():
    problem = load_weierstrass("10")
    assert (problem.n, problem.precision, problem.instance_name) == (10, "float64", "d10")
    assert (problem.encoding.low, problem.encoding.high, problem.objectives) == (-1.0, 1.0, ("f",))
    assert load_weierstrass("7:float32").instance_name == "d7-f32" and load_weierstrass("1:float64").n == 1
    assert load_weierstrass("10").instance.known_minimum == pytest.approx(-28.1562)
    for bad in ("0", "1001", "ten", "10:float16", "10:", "", "10.5", "-3"):
        with pytest.raises(MolsError, match="weierstrass instance"):
            load_weierstrass(bad)


def test_instance_table_lists_the_papers_dimensions_with_their_minimum():
    title, columns, rows = instance_table()
    assert "weierstrass" in title and len(columns) == 3
    assert [row[1] for row in rows] == list(range(1, 11))
    assert rows[9][2] == f"{10 * MINIMUM_PER_COORDINATE:.5f}"


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n", [1, 2, 10])
def test_the_kernel_equals_the_reference_evaluation(precision, n):
    problem, nbh = load_weierstrass(f"{n}:{precision}"), crowns(96)
    ev = mols.prepare(problem, nbh, "cpu")
    rng = np.random.default_rng(n)
    for x in (problem.random_solution(rng), np.ones(n), -np.ones(n)):  # the corners: clipped neighbors
        F = ev.evaluate(x, KEY)
        np.testing.assert_allclose(F, problem.evaluate(nbh.apply_many(x, np.arange(96), KEY)),
                                   rtol=0, atol=CPU_ATOL[precision] * n)


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n", [1, 3, 40])
def test_the_incremental_kernel_equals_the_full_one_on_every_adaptive_neighbor(precision, n):
    """The adaptive neighborhood's kernel adds the moved coordinates' changes to f(x): within CPU_ATOL n of the full
    kernel and of the reference, at every radius and subset level tried (255: almost only the forced coordinate)."""
    problem, nbh = load_weierstrass(f"{n}:{precision}"), adaptive(500)
    incremental = mols.prepare(problem, nbh, "cpu")
    full = mols.prepare(problem, nbh, mols.BackendSpec("cpu", incremental=False))
    rng = np.random.default_rng(n)
    for x in (problem.random_solution(rng), np.ones(n)):  # a corner: clipped steps, some neighbors equal to x
        for radius, subset in ((0, 0), (0, 4), (13, 255), (120, 9)):
            key = scaled_key(KEY, radius, subset)
            F = incremental.evaluate(x, key).copy()
            np.testing.assert_allclose(F, full.evaluate(x, key), rtol=0, atol=CPU_ATOL[precision] * n)
            np.testing.assert_allclose(F, problem.evaluate(nbh.apply_many(x, np.arange(500), key)),
                                       rtol=0, atol=CPU_ATOL[precision] * n)


def test_other_neighborhoods_are_refused():
    with pytest.raises(MolsError, match="crowns"):
        mols.prepare(load_weierstrass("3"), mols.get_neighborhood("swap"), "cpu")


@pytest.mark.parametrize("instance", ["2", "3", "3:float32"])
def test_tabu_improves_on_its_start_and_repeats(instance):
    """A run of 1 iteration and one of 100 start from the same point (same seed): the longer goes much
    lower, and again gives the same solution; what it reports is the reference value of its solution."""
    problem, nbh = load_weierstrass(instance), crowns(64)

    def run(iterations):
        result = mols.solve(problem, neighborhood=nbh, algorithm="tabu", iterations=iterations, seed=2,
                            backend="cpu")
        assert result.status == "completed"
        return result.archive

    start, best, again = run(1), run(100), run(100)
    assert best.F.min() < start.F.min() - 1.0 and best.F.min() < 0.5 * MINIMUM_PER_COORDINATE * problem.n
    np.testing.assert_array_equal(best.X, again.X)
    np.testing.assert_allclose(best.F, problem.evaluate(best.X), rtol=0,
                               atol=CPU_ATOL[problem.precision] * problem.n)
    assert (np.abs(best.X) <= 1.0).all()


def table_sin(y: float, i: int, precision: str) -> float:
    """sin(2^i y) as weierstrass.cu's weierstrass_term computes it (the reduction table for |2^i y| >= 2^8),
    in Python integers; sinpi(p) stands as sin(pi p) (within 2e-16 of it), sinpif as that rounded to float32."""
    table, f32 = reduction_table(), precision == "float32"
    if f32:
        bits = int(np.float32(abs(y)).view(np.uint32))
        E, M, bias, mantissa_bits = bits >> 23, (bits & 0x7FFFFF) | (1 << 23), 127, 23
    else:
        bits = int(np.float64(abs(y)).view(np.uint64))
        E, M, bias, mantissa_bits = bits >> 52, (bits & ((1 << 52) - 1)) | (1 << 52), 1023, 52
    if E == 0 or E - bias + i < 8:
        return math.sin(math.ldexp(y, i))
    high, low = (int(w) for w in table[E - bias - mantissa_bits + i - REDUCTION_SMIN])
    mask = (1 << 64) - 1
    phase = (M * high + (0 if f32 else (M * low) >> 64)) & mask  # the wrapping multiply: the fraction
    if y < 0:
        phase = -phase & mask
    signed = phase - (1 << 64) if phase >> 63 else phase
    if f32:
        p = float(np.float32(signed >> 32) * np.float32(2.0 ** -31))
        return float(np.float32(math.sin(math.pi * p)))
    return math.sin(math.pi * (signed * 2.0 ** -63))


def test_reduction_table_is_exact():
    """Row s - SMIN: floor(2^(s + 128) / (2 pi)) mod 2^128, high word then low word (checked by mpmath if
    installed; else only s = 0 against the double 1 / (2 pi))."""
    table = reduction_table()
    assert table.shape == (REDUCTION_SMAX - REDUCTION_SMIN + 1, 2) and table.dtype == np.uint64
    words = [int(table[s - REDUCTION_SMIN, 0]) << 64 | int(table[s - REDUCTION_SMIN, 1])
             for s in range(REDUCTION_SMIN, REDUCTION_SMAX + 1)]
    assert abs(words[-REDUCTION_SMIN] / 2.0 ** 128 - 1 / (2 * math.pi)) < 1e-16  # s = 0
    try:
        import mpmath
    except ImportError:
        return
    with mpmath.workprec(1000):
        for s, word in zip(range(REDUCTION_SMIN, REDUCTION_SMAX + 1), words):
            assert word == int(mpmath.floor(mpmath.mpf(2) ** (s + 128) / (2 * mpmath.pi))) % (1 << 128), s


@pytest.mark.parametrize("precision, atol", [("float64", 1e-15), ("float32", 2e-7)])
def test_the_cuda_argument_reduction_equals_libm_sin(precision, atol):
    """The reduction weierstrass.cu uses, emulated: within 1e-15 of libm's sin of the exact argument in
    float64 (measured: 5e-16), within about an ulp of float32 (measured: 1.1e-7) for every term i = 1..100."""
    rng = np.random.default_rng(4)
    special = [1.0, -1.0, 0.0, 5e-324, -2.0 ** -1000, 2.0 ** -30, -2 * math.pi / 15]
    ys = np.concatenate([rng.uniform(-1, 1, 200), special,
                         rng.uniform(-1, 1, 60) * 2.0 ** -rng.integers(0, 60, 60)]).astype(precision)
    worst = max(abs(table_sin(float(y), i, precision) - math.sin(math.ldexp(float(y), i)))
                for y in ys for i in range(1, TERMS + 1))
    assert worst < atol
