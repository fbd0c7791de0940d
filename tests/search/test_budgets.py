"""Budgets (search/budget.py): iterations, evaluations, time and a target end a run where they say, the first one
reached wins and the result says which; PLS-1's natural end (restarts)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.pls.search import ParetoLocalSearch
from mols.backends import prepare
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.runner import RunConfig, build_search, solve
from mols.runner.batch import build_batch
from tests.search.conftest import check_archive

QAP = {"instance": "tai12a", "problem": "qap", "backend": "cpu"}
FLOWSHOP = {"instance": "020_05_01", "backend": "cpu"}


def same_archive(a, b) -> None:
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(a.X, b.X)


@pytest.mark.parametrize("algorithm", ["pls", "tabu", "its", "hc", "ils"])
def test_an_evaluations_budget_ends_at_the_last_whole_evaluation_that_fits(algorithm):
    n = 361  # insertion neighbors of 20 jobs
    evaluations = 37 * n + n - 1  # 37 evaluations fit, the 38th would not
    result = solve(RunConfig(**FLOWSHOP, algorithm=algorithm, evaluations=evaluations, seed=2))
    assert result.n_neighbors == n and result.iterations == 37 and result.ended_by == "evaluations"
    assert result.evaluated_neighbors <= evaluations < result.evaluated_neighbors + n
    same_archive(result.archive, solve(RunConfig(**FLOWSHOP, algorithm=algorithm, iterations=37, seed=2)).archive)


@pytest.mark.parametrize("algorithm", ["pls", "its", "hc", "ils"])
def test_a_tiny_time_budget_ends_the_run_at_an_iteration(algorithm):
    result = solve(RunConfig(**QAP, algorithm=algorithm, time=1e-9, iterations=1000))
    assert result.status == "completed" and result.ended_by == "time"
    assert 1 <= result.iterations < 1000


def test_time_alone_leaves_the_iterations_unlimited_and_stops_where_an_iteration_budget_would():
    """A run ended by time is the run of as many iterations: the same trajectory, cut at an iteration."""
    for algorithm, extra in [("pls", {}), ("tabu", {"weights": (1.0, 1.0, 1.0)})]:
        timed = solve(RunConfig(**FLOWSHOP, algorithm=algorithm, time=0.05, seed=1, **extra))
        assert timed.ended_by == "time" and timed.iterations >= 1
        counted = solve(RunConfig(**FLOWSHOP, algorithm=algorithm, iterations=timed.iterations, seed=1, **extra))
        same_archive(timed.archive, counted.archive)


def test_tabu_with_several_weight_vectors_needs_a_budget_of_iterations_to_share():
    with pytest.raises(MolsError, match="give iterations or evaluations"):
        build_search(RunConfig(**FLOWSHOP, algorithm="tabu", time=1.0))
    assert build_search(RunConfig(**FLOWSHOP, algorithm="tabu", time=1.0, evaluations=361 * 50)).budget == 50


@pytest.mark.parametrize("fields, ended_by, iterations", [
    ({"iterations": 5, "evaluations": 361 * 9, "time": 1e3}, "iterations", 5),
    ({"iterations": 9, "evaluations": 361 * 5, "time": 1e3}, "evaluations", 5),
    ({"iterations": 5, "evaluations": 361 * 5}, "iterations", 5),
    ({"iterations": 1000, "time": 1e-9}, "time", 1),
])
def test_the_first_budget_reached_ends_the_run(fields, ended_by, iterations):
    result = solve(RunConfig(**FLOWSHOP, **fields))
    assert (result.ended_by, result.iterations) == (ended_by, iterations)


def test_no_budget_keeps_the_default_of_10000_iterations():
    assert RunConfig(**FLOWSHOP).iterations == 10_000
    assert RunConfig(**FLOWSHOP, time=1.0).iterations is None
    assert RunConfig(**FLOWSHOP, evaluations=10**6).iterations is None
    assert RunConfig(**FLOWSHOP, target=(1, 2, 3)).iterations == 10_000


@pytest.mark.parametrize("fields, message", [
    ({"time": -1.0}, "^time must be"), ({"time": 0.0}, "^time must be"), ({"time": float("nan")}, "^time must be"),
    ({"evaluations": 0}, "^evaluations must be"), ({"iterations": 0}, "^iterations must be"),
])
def test_bad_budgets_name_their_option(fields, message):
    with pytest.raises(MolsError, match=message):
        RunConfig(**FLOWSHOP, **fields)


@pytest.mark.parametrize("fields, message", [
    ({"evaluations": 360}, "^evaluations 360: fewer than one neighborhood evaluation"),
    ({"target": (1.0, 2.0)}, "^target: the flowshop problem has 3 objectives; give 3 values"),
    ({"target": 5.0}, "^target: the flowshop problem has 3 objectives"),
    ({"target": (1.0, float("inf"), 2.0)}, "^target: expected finite"),
    ({"restarts": -1}, "^restarts must be at least 0"),
])
def test_bad_budgets_found_with_the_problem_name_their_option(fields, message):
    with pytest.raises(MolsError, match=message):
        build_search(RunConfig(**FLOWSHOP, **fields))


def test_restarts_are_for_pls_only():
    with pytest.raises(MolsError, match="^algorithm tabu does not take restarts"):
        RunConfig(**FLOWSHOP, algorithm="tabu", restarts=0)


def trajectory(config: RunConfig, archives) -> list[np.ndarray]:
    """The objective vectors the run's archives (archives(search)) hold after each iteration of a run of config."""
    seen = []
    search = build_search(config, lambda done, size: seen.append(np.vstack([a.F for a in archives(search)])))
    search.run()
    return seen


def first_reaching(seen: list[np.ndarray], target) -> int:
    """The first iteration after which the archives hold a point at most `target` in every objective."""
    return next(t for t, F in enumerate(seen, 1) if (F <= np.asarray(target)).all(axis=1).any())


@pytest.mark.parametrize("algorithm, archives, extra", [
    ("pls", lambda s: [s.archive, s.local.archive], {}),
    ("tabu", lambda s: [s.archive], {"weights": (1.0, 1.0, 1.0)}),
])
def test_a_multiobjective_target_ends_the_run_at_the_first_iteration_that_weakly_dominates_it(algorithm, archives,
                                                                                              extra):
    free = RunConfig(**FLOWSHOP, algorithm=algorithm, iterations=60, seed=4, **extra)
    seen = trajectory(free, archives)
    target = tuple(float(v) + 1 for v in seen[-1][-1])  # a point the run comes to weakly dominate
    first = first_reaching(seen, target)
    assert first > 1
    result = solve(RunConfig(**FLOWSHOP, algorithm=algorithm, iterations=60, seed=4, target=target, **extra))
    assert result.ended_by == "target" and result.iterations == result.reached.iteration == first
    assert result.target == target and (result.archive.F <= target).all(axis=1).any()
    same_archive(result.archive, solve(RunConfig(**FLOWSHOP, algorithm=algorithm, iterations=first, seed=4,
                                                  **extra)).archive)


def test_a_one_objective_target_is_a_value_at_or_below():
    result = solve(RunConfig(**QAP, algorithm="tabu", iterations=500, seed=3, target=230000))
    assert result.ended_by == "target" and result.archive.F.min() <= 230000 and result.target == 230000.0
    assert result.iterations == result.reached.iteration < 500


def pls(problem, restarts, iterations=100_000, seed=0, variant="nondominated"):
    nbh = NEIGHBORHOODS["insertion"]
    return ParetoLocalSearch(problem, nbh, prepare(problem, nbh, "cpu"), iterations, np.random.default_rng(seed),
                             variant=variant, restarts=restarts)


@pytest.mark.parametrize("variant", ["nondominated", "dominating"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_restarts_0_ends_when_the_start_is_fully_explored(tiny, variant, seed):
    search = pls(tiny, 0, seed=seed, variant=variant)
    result = search.run()
    assert result.ended_by == "natural end" and result.starts == 1 and result.iterations < 100_000
    assert search.local.archive.visited.all()  # every member explored
    assert result.iterations >= len(result.archive)  # an iteration explores a member (some are dropped later)
    same_archive(result.archive, search.local.archive)  # one start: its archive is the run's
    check_archive(tiny, result.archive)
    free = pls(tiny, None, iterations=result.iterations, seed=seed, variant=variant).run()
    same_archive(result.archive, free.archive)  # the same run as without restarts, up to the natural end


def test_restarts_n_allow_n_restarts_then_end_naturally(tiny):
    search = pls(tiny, 3, seed=5)
    result = search.run()
    assert result.ended_by == "natural end" and result.starts == 4 and search.local.archive.visited.all()
    same_archive(result.archive, pls(tiny, None, iterations=result.iterations, seed=5).run().archive)


def test_a_budget_before_the_natural_end_ends_the_run():
    result = solve(RunConfig(**FLOWSHOP, restarts=0, iterations=20))
    assert result.ended_by == "iterations" and result.iterations == 20
    natural = solve(RunConfig(**FLOWSHOP, restarts=0))
    assert natural.ended_by == "natural end" and 20 < natural.iterations < 10_000


def test_a_batch_of_searches_keeps_each_budget():
    config = RunConfig(**QAP, algorithm="tabu", evaluations=66 * 40 + 65, seed=3)
    results = build_batch(config, 3).run()
    assert [(r.iterations, r.ended_by) for r in results] == [(40, "evaluations")] * 3
    timed = build_batch(RunConfig(**QAP, algorithm="its", time=1e-9), 2).run()
    assert [r.ended_by for r in timed] == ["time"] * 2


def test_a_target_cuts_a_batch_of_walk_steps_at_the_step_that_reaches_it(monkeypatch):
    """A walk that comes in batches of 16 steps (as on the device) stops where the host walk's steps do."""
    from mols.algorithms.tabu import search as tabu_search
    from mols.algorithms.tabu.walks import host_walk

    config = RunConfig(**FLOWSHOP, algorithm="tabu", weights=(1.0, 1.0, 1.0), iterations=200, seed=6)
    seen = trajectory(config, lambda s: [s.archive])
    # a member first held inside a batch (iteration 1 evaluates the normalisation, the walk's steps follow)
    target = next(tuple(map(float, f)) for f in seen[-1] if (first_reaching(seen, f) - 1) % 16)
    stepwise = solve(RunConfig(**{**config.__dict__, "target": target}))
    assert stepwise.ended_by == "target" and stepwise.iterations == first_reaching(seen, target)
    search = build_search(RunConfig(**{**config.__dict__, "target": target}))

    def in_batches(ev, x, c, threshold, steps, tenure, keys=None, tabu=None):
        steps = list(host_walk(search.evaluator, search.nbh, x, c, threshold, steps, tenure, keys, tabu))
        for first in range(0, len(steps), 16):
            yield tuple(np.concatenate(part) for part in zip(*steps[first:first + 16]))

    monkeypatch.setattr(tabu_search, "device_walk", in_batches)  # a stand-in for the device's walk
    batched = search.run()
    assert batched.walk == "device" and batched.reached.iteration == batched.iterations == stepwise.iterations
    same_archive(batched.archive, stepwise.archive)
