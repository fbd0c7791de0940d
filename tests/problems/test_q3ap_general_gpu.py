"""The general Q3AP's CUDA kernels (q3ap_general.cu) against their Numba twins, exactly: both neighborhoods, symmetric
and not, int32 and int64, the product form's instances in general form, n = 36 (rows of C past 2^31 entries); the
device walk (q3ap_general_apply) and walks side by side in lanes against the host walk; the fused selection; whole
ITS runs on both backends; and costs that do not fit the device refused before the upload."""

from __future__ import annotations

import numpy as np
import pytest

import mols.memory
from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, prepare
from mols.errors import MolsError
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems import load_problem
from mols.problems.q3ap import Q3apGeneral, from_product, random_general
from mols.problems.q3ap.general import costs_nbytes
from mols.runner import RunConfig, solve
from tests.conftest import device_walks_agree, lane_walks_agree
from tests.problems.q3ap_cases import random_general_problem

pytestmark = pytest.mark.gpu
NEIGHBORHOODS = [BASIC, ADVANCED]


def same_F(problem, nbh, rng, repeats=3):
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    for _ in range(repeats):
        x = problem.random_solution(rng)
        F = gpu.evaluate(x)
        assert F.dtype == problem.dtype
        np.testing.assert_array_equal(F, cpu.evaluate(x))


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n, symmetric", [(2, True), (3, False), (7, True), (13, False), (20, True), (21, False)])
def test_gpu_equals_cpu_on_random_instances(rng, nbh, n, symmetric):
    same_F(random_general_problem(rng, n, symmetric), nbh, rng)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
def test_gpu_equals_cpu_int64(rng, nbh):
    problem = random_general_problem(rng, 11, False, big=True)
    assert problem.dtype == np.int64
    same_F(problem, nbh, rng)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("instance", ["nug12", "nug15"])
def test_gpu_equals_cpu_and_product_form_on_bundled_instances(rng, nbh, instance):
    product = load_problem("q3ap", instance)
    general = Q3apGeneral(from_product(product.instance))
    same_F(general, nbh, rng)
    x = product.random_solution(rng)
    np.testing.assert_array_equal(prepare(general, nbh, "gpu").evaluate(x), prepare(product, nbh, "gpu").evaluate(x))


def test_gpu_equals_cpu_where_rows_of_c_pass_int32_offsets(rng):
    """n = 36: C has 46,656^2 entries (8.7 GB), and its last rows start past 2^31: the offsets must be 64-bit."""
    import cupy

    need = costs_nbytes(36)
    if mols.memory.available_bytes() < 2 * need or cupy.cuda.runtime.memGetInfo()[0] < need + (1 << 30):
        pytest.skip("needs 17.5 GB of host memory and 9.7 GB of GPU memory")
    problem = Q3apGeneral(random_general(36, 3))
    same_F(problem, BASIC, rng, repeats=2)
    x = problem.random_solution(rng)
    x[:36], x[36:] = np.arange(36)[::-1], np.arange(36)[::-1]  # the last triples: the last rows of C
    np.testing.assert_array_equal(prepare(problem, BASIC, "gpu").evaluate(x), prepare(problem, BASIC, "cpu").evaluate(x))


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("symmetric", [True, False])
def test_device_walk_takes_the_host_walks_steps(rng, nbh, symmetric):
    """Tabu walks on the device (batches of 7 steps; q3ap_general_apply moves the state) and four side by side in
    lanes visit the host walk's solutions, and leave the last solution's state on the device."""
    problem = random_general_problem(rng, 9, symmetric)
    gpu = prepare(problem, nbh, BackendSpec("gpu", walk_batch=7))
    tenure = nbh.n_neighbors(problem.n) // 4
    device_walks_agree(problem, nbh, gpu, rng, tenure)
    lane_walks_agree(problem, nbh, gpu, rng, tenure)


@pytest.mark.parametrize("nbh", NEIGHBORHOODS, ids=lambda nbh: nbh.name)
def test_fused_selection_chooses_as_the_cpu(rng, nbh):
    """q3ap_general_neighborhood_select, the unfused kernels and the CPU choose the same best admissible neighbor, some
    moves forbidden, with and without aspiration."""
    problem = random_general_problem(rng, 10, False)
    evaluators = [prepare(problem, nbh, spec) for spec in ("cpu", BackendSpec("gpu"), BackendSpec("gpu", fused=False))]
    n = nbh.n_neighbors(problem.n)
    forbidden = rng.choice(n, size=n // 3, replace=False)
    for ev in evaluators:
        for idx in forbidden:
            selection_for(ev).forbid(int(idx), 5)
    for _ in range(3):
        x = problem.random_solution(rng)
        threshold = float(evaluators[0].evaluate(x).min()) + 1
        for thr in (threshold, -np.inf):
            chosen = [selection_for(ev)(x, np.ones(1), 2, thr) for ev in evaluators]
            assert len({(i, s) for i, s, _ in chosen}) == 1, chosen


@pytest.mark.parametrize("neighborhood", ["basic", "advanced"])
def test_its_same_on_both_backends(neighborhood):
    runs = [solve(RunConfig("random:10:2", problem="q3ap", algorithm="its", neighborhood=neighborhood, backend=b,
                            iterations=400, run_length=100, seed=3)) for b in ("cpu", "gpu")]
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


def test_costs_that_do_not_fit_the_device_are_refused(monkeypatch):
    """The upload of C is checked against the device's free memory: the message names the instance and the bytes."""
    import cupy

    monkeypatch.setattr(cupy.cuda.runtime, "memGetInfo", lambda: (1 << 20, 1 << 30))
    monkeypatch.setattr(cupy, "get_default_memory_pool", lambda: type("Pool", (), {"free_bytes": lambda self: 0})())
    problem = Q3apGeneral(random_general(9, 1))
    with pytest.raises(MolsError, match=r"of random:9:1 \(1,296 neighbors\): its data \(2,125,764 bytes\) would take "
                                        r"2.0 MiB of GPU memory, more than the 1.0 MiB available"):
        prepare(problem, ADVANCED, "gpu")
