"""Iterated tabu search: the budget exactly, at least as good as its first tabu run, options checked."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import walks
from mols.errors import MolsError
from mols.runner import RunConfig, build_search, solve


def config(**kwargs) -> RunConfig:
    return RunConfig("tai15a", problem="qap", backend="cpu", seed=3, **kwargs)


def test_its_improves_on_or_equals_its_first_tabu_run():
    first = solve(config(algorithm="tabu", iterations=60))
    its = solve(config(algorithm="its", iterations=300, run_length=60, strength=3))
    assert its.status == first.status == "completed"
    assert its.iterations == 300 and first.iterations == 60  # the budget, exactly
    assert its.archive.F.min() <= first.archive.F.min()
    problem = build_search(config(algorithm="its", iterations=1)).problem
    np.testing.assert_array_equal(its.archive.F, problem.evaluate(its.archive.X))


def test_each_run_starts_from_the_run_before_it_perturbed():
    """Run r + 1 starts from run r's best solution after `strength` random swaps (not from the best of
    all runs); the last run is not perturbed."""
    search = build_search(config(algorithm="its", iterations=250, run_length=50, strength=2))
    runs, starts = [], []
    start_run, perturb = search._start_run, search.perturb

    def recording_start(w, budget, start=None, own_archive=False):
        starts.append(start)
        runs.append((yield from start_run(w, budget, start, own_archive)))
        return runs[-1]

    def recording_perturb(x):
        assert x is runs[-1].best_xf[0]  # the best of the run just ended
        y, f = perturb(x)
        assert np.count_nonzero(y != x) <= 4  # two swaps
        return y, f

    search._start_run, search.perturb = recording_start, recording_perturb
    assert search.run().status == "completed"
    assert len(runs) == 5 and starts[0] is None and all(start is not None for start in starts[1:])


def test_its_budget_not_a_multiple_of_the_run_length():
    result = solve(config(algorithm="its", iterations=101, run_length=25))
    assert result.iterations == 101 and result.starts == 1


def test_its_multiobjective_uses_one_weight_vector():
    result = solve(RunConfig("KC10-2fl-1uni", problem="mqap", algorithm="its", backend="cpu", iterations=80,
                             weights=(0.3, 0.7), run_length=20))
    assert result.iterations == 80 and len(result.archive) >= 1


@pytest.mark.parametrize("kwargs, message", [
    ({"algorithm": "its", "strength": 16}, "^strength must be in 1..15"),
    ({"algorithm": "its", "run_length": 0}, "^run_length must be at least 1"),
    ({"algorithm": "tabu", "strength": 2}, r"^algorithm tabu does not take strength \(only its or elite or ils\)"),
    ({"algorithm": "its", "partitions": 4}, r"^algorithm its does not take partitions \(only tabu\)"),
])
def test_its_options_checked(kwargs, message):
    with pytest.raises(MolsError, match=message):
        build_search(config(iterations=10, **kwargs))


def test_single_objective_tabu_archive_holds_the_best_solution_visited(monkeypatch):
    """With one objective the tabu search offers the archive only new bests: it still ends with the best
    solution of every step, correctly evaluated."""
    search = build_search(RunConfig("tai12a", problem="qap", algorithm="tabu", backend="cpu", iterations=300, seed=3))
    seen = []
    selection = walks.selection_for(search.evaluator)

    def recording(x, c, step, threshold, key=None):
        idx, score, f = selection(x, c, step, threshold, key)
        seen.append(int(f[0]))
        return idx, score, f

    recording.forbid, recording.allow_all = selection.forbid, selection.allow_all
    monkeypatch.setattr(walks, "selection_for", lambda ev: recording)  # the host walk's selection
    result = search.run()
    visited = seen[-300:]
    assert len(result.archive) == 1 and result.archive.F[0, 0] <= min(visited)
    np.testing.assert_array_equal(search.problem.evaluate(result.archive.X), result.archive.F)
