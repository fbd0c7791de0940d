"""On the device only: PLS iterations run in batches on the device (algorithms/pls/device.py) and tabu walks in
batches of steps (algorithms/tabu/gpu_walk.py, lanes, batches of searches) end where the CPU ends, by the same budget:
evaluations, a target, the natural end (restarts); a tiny time budget ends them by time."""

from __future__ import annotations

import numpy as np
import pytest

from mols.backends import BackendSpec, prepare
from mols.problems import load_problem
from mols.runner import RunConfig, make_search, solve
from mols.runner.batch import build_batch

pytestmark = pytest.mark.gpu

SPECS = {"device": BackendSpec("gpu"), "host": BackendSpec("gpu", device_walk=False), "cpu": BackendSpec("cpu")}
N = 361  # insertion neighbors of 020_10_01's 20 jobs


def outcomes(walk: str, **fields) -> dict:
    """Each spec's run of the configuration: where it walked, and what it ended with."""
    out = {}
    for name, spec in SPECS.items():
        config = RunConfig("020_10_01", backend=spec.device, seed=11, **fields)
        problem = load_problem(config.problem, config.instance)
        nbh = problem.neighborhood(config.neighborhood)
        search = make_search(config, problem, nbh, prepare(problem, nbh, spec.resolved()))
        result = search.run()
        assert result.status == "completed", result.error
        assert result.walk == (walk if name == "device" else "host")
        out[name] = result
    return out


def agree(results: dict) -> None:
    want = results["cpu"]
    for name, got in results.items():
        assert (got.iterations, got.ended_by, got.starts) == (want.iterations, want.ended_by, want.starts), name
        assert (got.reached and got.reached.iteration) == (want.reached and want.reached.iteration), name
        for part in ("F", "X"):
            np.testing.assert_array_equal(getattr(got.archive, part), getattr(want.archive, part), name)


def member_target(**fields) -> tuple[float, ...]:
    """A point that a CPU run of 300 iterations comes to weakly dominate."""
    archive = solve(RunConfig("020_10_01", backend="cpu", seed=11, iterations=300, **fields)).archive
    return tuple(float(v) + 1 for v in archive.F[len(archive) // 2])


@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
@pytest.mark.parametrize("budget, ended_by", [
    ({"evaluations": 137 * N + 200}, "evaluations"), ({"evaluations": 1234 * N + 5}, "evaluations"),
    ({"restarts": 0}, "natural end"), ({"restarts": 2}, "natural end"), ({"restarts": 0, "iterations": 40}, None),
    ({"target": "member"}, "target"),
])
def test_device_pls_iterations_end_as_the_cpu(variant, budget, ended_by):
    if budget.get("target") == "member":
        budget = {"target": member_target(variant=variant), "iterations": 300}
    results = outcomes("device", variant=variant, **budget)
    agree(results)
    if ended_by is not None:  # (PLS-√ may end naturally before 40 iterations)
        assert results["cpu"].ended_by == ended_by


def test_device_pls_natural_end_counts_the_host_iterations():
    """The device's batches end with the start: no iteration without a member is counted."""
    results = outcomes("device", restarts=0)
    assert results["device"].iterations == results["host"].iterations == results["cpu"].iterations
    assert results["cpu"].ended_by == "natural end"


@pytest.mark.parametrize("budget", [{"evaluations": 301 * N + 7}, {"target": "member", "iterations": 500},
                                    {"evaluations": 230 * N, "weights": None}])
def test_device_tabu_walks_end_as_the_cpu(budget):
    fields = {"algorithm": "tabu", "weights": (1.0, 1.0, 1.0), **budget}
    if fields.get("target") == "member":
        fields["target"] = member_target(algorithm="tabu", weights=(1.0, 1.0, 1.0))
    results = outcomes("device", **fields)
    agree(results)
    assert results["cpu"].ended_by == ("target" if "target" in fields else "evaluations")


def test_a_batch_of_searches_in_one_launch_keeps_each_budget():
    config = {"instance": "tai25a", "problem": "qap", "algorithm": "its", "evaluations": 300 * 300 + 11, "seed": 2}
    gpu = build_batch(RunConfig(backend="gpu", **config), 3).run()
    cpu = build_batch(RunConfig(backend="cpu", **config), 3).run()
    for g, c in zip(gpu, cpu):
        assert (g.iterations, g.ended_by) == (c.iterations, c.ended_by) == (300, "evaluations")
        np.testing.assert_array_equal(g.archive.F, c.archive.F)


@pytest.mark.parametrize("fields", [{"algorithm": "pls"}, {"algorithm": "tabu", "weights": (1.0, 1.0, 1.0)}])
def test_a_time_budget_ends_device_batches_at_a_batch_boundary(fields):
    result = solve(RunConfig("020_10_01", backend="gpu", time=0.05, iterations=10**6, **fields))
    assert result.walk == "device" and result.ended_by == "time" and 1 <= result.iterations < 10**6
    if fields["algorithm"] == "tabu":  # the normalisation's evaluation, then whole batches of steps
        assert (result.iterations - 1) % BackendSpec("gpu").walk_batch == 0
