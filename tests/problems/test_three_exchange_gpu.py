"""3-exchange on the device against its CPU twins, exactly: QAP's cycle_delta (lanes per move, int32 wrapping and
int64, symmetric or not), the TSP's and the flowshop's kernels, the fused selection with forbids, tabu walks on the
device (qap_apply, tsp_3exchange_apply and flowshop_apply rotate the state there) and whole searches.
(The mapping's CUDA twin: tests/backends/test_gpu.py::test_cuda_decode_equals_numba_decode[3exchange-*].)"""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.selection import selection_for
from mols.backends import BackendSpec, prepare
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from mols.problems.qap.instance import QapInstance
from mols.problems.qap.model import Qap
from mols.runner import RunConfig, solve
from tests.conftest import device_walks_agree, lane_walks_agree, random_instance
from tests.problems.test_tsp_model import random_tsp

pytestmark = pytest.mark.gpu
THREE, SWAP = get_neighborhood("3exchange"), get_neighborhood("swap")
GPU = BackendSpec("gpu")


def random_qap(rng, n: int, k: int, symmetric: bool, low: int = -50, high: int = 100) -> Qap:
    a, b = rng.integers(low, high, size=(k, n, n)), rng.integers(0, 1000, size=(n, n))
    if symmetric:
        a, b = a + a.transpose(0, 2, 1), b + b.T
    problem = Qap(QapInstance("random", a, b))
    assert problem.symmetric == symmetric
    return problem


def evaluations_agree(problem, rng, spec: BackendSpec = GPU, steps: int = 6) -> None:
    """F on the GPU equals the CPU's along a walk of 3-cycles and swaps, with a restart."""
    cpu, gpu = prepare(problem, THREE, "cpu"), prepare(problem, THREE, spec)
    x = problem.random_solution(rng)
    for step in range(steps):
        np.testing.assert_array_equal(gpu.evaluate(x), cpu.evaluate(x))
        moves = SWAP if step == 1 else THREE
        x = problem.random_solution(rng) if step == 3 else moves.apply(x, int(rng.integers(moves.size(problem.n))))


def selections_agree(problem, rng, spec: BackendSpec = GPU, steps: int = 15) -> None:
    """The device's choice with forbids (both rotations of each triple taken) and aspiration equals the CPU's."""
    cpu, gpu = prepare(problem, THREE, "cpu"), prepare(problem, THREE, spec)
    c = rng.random(problem.n_obj) / 1e3
    x, best = problem.random_solution(rng), np.inf
    for step in range(steps):
        got, want = selection_for(gpu)(x, c, step, best), selection_for(cpu)(x, c, step, best)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])
        for ev in (cpu, gpu):
            for idx in (THREE.inverse(want[0], problem.n), want[0]):
                selection_for(ev).forbid(idx, step + 1 + problem.n // 2)
        best = min(best, want[1])
        x = THREE.apply(x, want[0])


@pytest.mark.parametrize("symmetric", [True, False])
@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("n", [3, 4, 5, 13, 37])
def test_qap_gpu_equals_cpu_on_random_instances(rng, symmetric, k, n):
    evaluations_agree(random_qap(rng, n, k, symmetric), rng)


@pytest.mark.parametrize("problem, instance", [("qap", "tai12a"), ("qap", "tai100a"), ("qap", "tai150b"),
                                               ("mqap", "KC10-2fl-1uni"), ("mqap", "KC30-3fl-2rl")])
def test_qap_gpu_equals_cpu_on_bundled_instances(rng, problem, instance):
    """tai150b: int64 costs; tai100a: 323,400 moves of 16 lanes each."""
    evaluations_agree(load_problem(problem, instance), rng, steps=3)


def test_qap_large_int32_costs_wrap_harmlessly(rng):
    """Costs near 2^30 that still fit int32: the partial sums wrap in unsigned arithmetic, the costs come out exact."""
    n = 20
    problem = Qap(QapInstance("big", rng.integers(0, 2**11, size=(1, n, n)), rng.integers(0, 2**12, size=(n, n))))
    assert problem.dtype == np.int32
    evaluations_agree(problem, rng)


@pytest.mark.parametrize("lanes", [1, 2, 8, 32])
@pytest.mark.parametrize("fused", [True, False])
def test_qap_lanes_sharing_a_move_give_the_cpus_costs_and_choice(rng, lanes, fused):
    """LANES threads per move on a size no lane count divides, a last warp past the end: F and the selection."""
    problem = random_qap(rng, 37, 2, symmetric=False)
    problem.kernels.tuned_move_threads = lanes
    evaluations_agree(problem, rng, BackendSpec("gpu", fused=fused), steps=3)
    selections_agree(problem, rng, BackendSpec("gpu", fused=fused), steps=5)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("instance", ["tai25a", "tai150b", "KC10-2fl-1uni", "asymmetric"])
def test_qap_selection_and_device_walks_take_the_host_walks_steps(rng, fused, instance):
    """The fused and the F-writing selection pick the CPU's moves; tabu walks on the device (qap_walk_step with
    qap_apply_in's two exchanges; 3-exchange never takes Taillard's step) visit the host walk's solutions, alone and
    four side by side in lanes, and leave the state of their last solutions."""
    if instance == "asymmetric":
        problem = random_qap(rng, 30, 2, symmetric=False)
    else:
        problem = load_problem("mqap" if instance.startswith("KC") else "qap", instance)
    selections_agree(problem, rng, BackendSpec("gpu", fused=fused))
    gpu = prepare(problem, THREE, BackendSpec("gpu", fused=fused, walk_batch=7))
    device_walks_agree(problem, THREE, gpu, rng, problem.n // 4)
    lane_walks_agree(problem, THREE, gpu, rng, problem.n // 4)


def test_qap_host_generation_equals_cpu(rng):
    """--generation host: the moves decoded on the host, three positions each (techniques.cuh's Move)."""
    evaluations_agree(load_problem("qap", "tai25a"), rng, BackendSpec("gpu", generation="host"))


@pytest.mark.parametrize("n", [3, 4, 5, 7, 50])
@pytest.mark.parametrize("kind, k", [("EUC_2D", 1), ("ATT", 1), ("EUC_2D", 2)])
def test_tsp_gpu_equals_cpu_and_walks_agree(rng, n, kind, k):
    """tsp_3exchange's six edges (fewer where the positions touch or wrap) against moves.cycle_delta; the walk's
    tsp_3exchange_apply rotates the tour and measures its edges again."""
    problem = random_tsp(rng, n, kind, k=k)
    evaluations_agree(problem, rng)
    device_walks_agree(problem, THREE, prepare(problem, THREE, BackendSpec("gpu", walk_batch=7)), rng, max(1, n // 4))
    if n >= 5:
        lane_walks_agree(problem, THREE, prepare(problem, THREE, BackendSpec("gpu", walk_batch=8)), rng, n // 4)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("chunk", [7, 300, None])
def test_tsp_chunked_equals_cpu(rng, chunk, fused):
    problem = random_tsp(rng, 40, "EUC_2D")
    spec = BackendSpec("gpu", chunk_rows=chunk, fused=fused)
    evaluations_agree(problem, rng, spec, steps=2)
    selections_agree(problem, rng, spec, steps=4)


@pytest.mark.parametrize("n, m", [(3, 2), (9, 3), (30, 45)])
def test_flowshop_walks_agree(rng, n, m):
    """flowshop_apply moves the state by the cycle's six runs (nbh_segments); m = 45: two chunks of lanes."""
    problem = Flowshop(random_instance(rng, n, m))
    gpu = prepare(problem, THREE, BackendSpec("gpu", walk_batch=7))
    device_walks_agree(problem, THREE, gpu, rng, max(1, n // 4))
    lane_walks_agree(problem, THREE, prepare(problem, THREE, BackendSpec("gpu", walk_batch=8)), rng, max(1, n // 4))


@pytest.mark.parametrize("problem, instance, algorithm", [("qap", "tai12a", "tabu"), ("qap", "tai20a", "its"),
                                                          ("mqap", "KC10-2fl-1uni", "pls"), ("tsp", "kroA100", "tabu"),
                                                          ("flowshop", "020_10_01", "pls"),
                                                          ("flowshop", "020_10_01", "tabu")])
def test_searches_same_on_both_backends(problem, instance, algorithm):
    """Through mols.solve with -n 3exchange: the device's walks, its PLS iterations with the resident archive (the
    neighbors made from nbh_segments) and its selection give the CPU's archive."""
    runs = [solve(RunConfig(instance, problem=problem, algorithm=algorithm, neighborhood="3exchange", backend=b,
                            iterations=60, seed=3)) for b in ("cpu", "gpu")]
    for run in runs:
        assert run.status == "completed", run.error
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(runs[1].archive, part), getattr(runs[0].archive, part))
