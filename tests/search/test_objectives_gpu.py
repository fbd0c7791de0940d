"""On the device only: with a subset of the objectives (Problem.with_objectives), the CUDA kernels write the CPU's
F (the chosen columns of the whole problem's), walks and lanes take the host's steps, and GPU searches (the device
archive, PLS iterations on the device, tabu walks) find the CPU's front."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import BackendSpec, prepare
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from mols.runner import RunConfig, make_search, run_problem, solve
from tests.conftest import lane_walks_agree, random_instance
from tests.problems.test_tsp_model import random_tsp

pytestmark = pytest.mark.gpu
SUBSETS = [("makespan", "total_tardiness"), ("total_tardiness", "makespan"), ("n_tardy", "makespan"),
           ("total_tardiness",), ("n_tardy", "total_tardiness", "makespan")]


def gpu_equals_cpu(full, names, nbh_name, rng, solutions=3) -> None:
    """F of the subset on the GPU = on the CPU = the whole problem's CPU F, its columns chosen."""
    subset = full.with_objectives(names)
    nbh = full.neighborhood(nbh_name)
    columns = [full.objectives.index(name) for name in names]
    gpu, cpu, whole = prepare(subset, nbh, "gpu"), prepare(subset, nbh, "cpu"), prepare(full, nbh, "cpu")
    for _ in range(solutions):
        x = full.random_solution(rng)
        want = whole.evaluate(x)[:, columns]
        np.testing.assert_array_equal(cpu.evaluate(x), want)
        np.testing.assert_array_equal(gpu.evaluate(x), want)


@pytest.mark.parametrize("names", SUBSETS)
@pytest.mark.parametrize("nbh_name", sorted(Flowshop.neighborhoods))
@pytest.mark.parametrize("n, m", [(9, 3), (50, 10)])
def test_flowshop_kernel_writes_the_cpus_columns(rng, names, nbh_name, n, m):
    gpu_equals_cpu(Flowshop(random_instance(rng, n, m)), names, nbh_name, rng)


@pytest.mark.parametrize("names", SUBSETS[:2] + SUBSETS[3:4])
def test_flowshop_lanes_take_the_host_walks_steps(rng, names):
    """Each lane's rows of F (flowshop.cu's F + blockIdx.y * n_moves * N_OBJ) with a subset."""
    subset = Flowshop(random_instance(rng, 12, 4)).with_objectives(names)
    nbh = subset.neighborhood("insertion")
    lane_walks_agree(subset, nbh, prepare(subset, nbh, BackendSpec("gpu", walk_batch=8)), rng, 3)


@pytest.mark.parametrize("problem, instance, names", [("mqap", "KC30-3fl-1uni", ("cost_3", "cost_1")),
                                                      ("mqap", "KC30-3fl-1uni", ("cost_2",)),
                                                      ("mqap", "KC10-2fl-1uni", ("cost_2", "cost_1"))])
def test_mqap_kernel_writes_the_cpus_columns(rng, problem, instance, names):
    gpu_equals_cpu(load_problem(problem, instance), names, "swap", rng)


@pytest.mark.parametrize("nbh_name", ["swap", "2opt"])
@pytest.mark.parametrize("names", [("length_r1", "length_r0"), ("length_r1",)])
def test_bitsp_kernel_writes_the_cpus_columns(rng, nbh_name, names):
    gpu_equals_cpu(random_tsp(rng, 60, k=2), names, nbh_name, rng)


@pytest.mark.parametrize("names", SUBSETS[:2])
@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
def test_pls_on_the_device_finds_the_cpus_front(names, variant):
    """PLS with its iterations on the device (the resident archive, the GPU filter, algorithms/pls/device.py), with the
    host driving each iteration, and on the CPU: one front."""
    fronts = {}
    for name, spec in [("device", BackendSpec("gpu")), ("host", BackendSpec("gpu", device_walk=False)),
                       ("cpu", BackendSpec("cpu"))]:
        config = RunConfig("020_10_01", variant=variant, backend=spec.device, iterations=300, seed=11, objectives=names)
        problem = run_problem(config)
        nbh = problem.neighborhood(config.neighborhood)
        search = make_search(config, problem, nbh, prepare(problem, nbh, spec.resolved()))
        assert (search.local.device_iterations is not None) == (name == "device")
        result = search.run()
        assert result.status == "completed", result.error
        assert result.walk == ("device" if name == "device" else "host")
        assert result.archive.F.shape[1] == len(names)
        fronts[name] = result.archive
    for name, archive in fronts.items():
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(archive, part), getattr(fronts["cpu"], part), name)


@pytest.mark.parametrize("problem, instance, names, algorithm", [
    ("flowshop", "020_10_01", ("total_tardiness", "makespan"), "tabu"),
    ("flowshop", "020_10_01", ("makespan",), "tabu"),
    ("flowshop", "020_10_01", ("n_tardy", "makespan"), "pls"),
    ("mqap", "KC30-3fl-1uni", ("cost_3", "cost_1"), "pls"),
    ("mqap", "KC30-3fl-1uni", ("cost_3", "cost_1"), "tabu"),
    ("bitsp", "kroAB100", ("length_kroB100", "length_kroA100"), "pls"),
])
def test_gpu_search_finds_the_cpus_front(problem, instance, names, algorithm):
    runs = [solve(RunConfig(instance, problem=problem, algorithm=algorithm, backend=backend, iterations=150, seed=4,
                            objectives=names)) for backend in ("cpu", "gpu")]
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(runs[1].archive, part), getattr(runs[0].archive, part))
    assert runs[1].archive.F.shape[1] == len(names)
