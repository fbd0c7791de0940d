"""The elite search (-a elite): the same seed gives the same run, the budget exactly, tenures drawn in their range
each round, the worst walks restarted from perturbed elite solutions, Ro-TS's long-term aspiration, its options."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.elite.memory import Elite, WalkMemory, oldest_swap, oldest_swaps
from mols.algorithms.elite.options import tenure_range
from mols.algorithms.tabu.positions import LanePositions
from mols.algorithms.tabu.steps import WalkLane
from mols.algorithms.tabu.walks import HostWalk
from mols.backends import prepare
from mols.errors import OptionError
from mols.problems import load_problem
from mols.problems.qap.rots_round import CpuRounds
from mols.runner import RunConfig, build_search, solve


def config(instance: str = "tai12a", **kwargs) -> RunConfig:
    return RunConfig(instance, problem="qap", algorithm="elite", backend="cpu", seed=5, **kwargs)


def moves_config(**kwargs) -> RunConfig:
    """The elite with the tabu memory of moves, whose walks' WalkMemory rounds_of reads."""
    return config(tabu_memory="moves", **kwargs)


def rounds_of(search) -> list[list[tuple]]:
    """Each round's walks as (start x, tenure, tabu at start, last x, best score, best x) for each walk."""
    rounds, walk = [], search._walk_runs

    def recording(runs):
        starts = [(run.lane.x.copy(), run.tenure, run.lane.tabu) for run in runs]
        yield from walk(runs)
        rounds.append([(*start, run.watch.__self__.last.copy(), run.best, run.best_xf[0]) for start, run in zip(starts, runs)])

    search._walk_runs = recording
    assert search.run().status == "completed"
    return rounds


@pytest.mark.parametrize("tabu_memory", ["rots", "moves"])
def test_the_same_seed_gives_the_same_run_and_the_budget_exactly(tabu_memory):
    first, again = (solve(config(iterations=3000, walkers=6, tabu_memory=tabu_memory)) for _ in range(2))
    assert first.iterations == again.iterations == 3000
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(first.archive, part), getattr(again.archive, part))
    problem = load_problem("qap", "tai12a")
    np.testing.assert_array_equal(first.archive.F, problem.evaluate(first.archive.X))
    assert first.archive.F.min() == 224416  # tai12a's optimum, in 3,000 steps


def test_tenures_are_drawn_in_their_range_for_each_walk_and_round():
    search = build_search(moves_config(iterations=4800, walkers=8, period=50, tenures=(0.5, 1.5), aspiration=0))
    rounds = rounds_of(search)
    low, high = tenure_range((0.5, 1.5), 12)
    assert (low, high) == (6, 18) and len(rounds) == 12
    tenures = np.array([[walk[1] for walk in one] for one in rounds])
    assert tenures.min() >= low and tenures.max() <= high
    assert len(np.unique(tenures)) > 5 and not (tenures[1:] == tenures[:-1]).all(axis=1).any()  # drawn afresh


def test_the_worst_walks_restart_from_perturbed_elite_solutions_the_others_go_on():
    search = build_search(moves_config(iterations=3000, walkers=6, replace=2, period=50, strength=2, elite=3,
                                 aspiration=0))
    rounds = rounds_of(search)
    elite = Elite(3)
    for before, after in itertools.pairwise(rounds):
        for walk in before:
            elite.offer(walk[4], walk[5])  # the walks' bests are offered; the elite keeps the 3 best distinct
        worst = set(np.argsort([walk[4] for walk in before], kind="stable")[-2:].tolist())
        for b, (prev, nxt) in enumerate(zip(before, after)):
            if b in worst:  # two swaps away from an elite member (at most 4 positions differ)
                assert min(np.count_nonzero(nxt[0] != m) for m in elite.members) <= 4
            else:
                np.testing.assert_array_equal(nxt[0], prev[3])  # where it stood


def test_elite_keeps_the_best_distinct_solutions():
    elite, x = Elite(2), np.arange(4)
    elite.offer(5.0, x)
    elite.offer(5.0, x.copy())  # the same solution: once
    elite.offer(7.0, x[::-1].copy())
    elite.offer(3.0, np.array([1, 0, 2, 3]))
    elite.offer(9.0, np.array([2, 1, 0, 3]))  # worse than both: out
    assert elite.scores == [3.0, 5.0] and [m.tolist() for m in elite.members] == [[1, 0, 2, 3], [0, 1, 2, 3]]


def test_elite_tells_distinct_solutions_of_one_score_from_a_member_offered_again():
    a, b, c, d = np.array([0, 1, 2]), np.array([1, 0, 2]), np.array([2, 1, 0]), np.array([0, 2, 1])
    elite = Elite(4)
    for score, x in ((1.0, c), (2.0, a), (2.0, b), (2.0, a.copy()), (2.0, b.copy()), (3.0, d), (1.0, c.copy())):
        elite.offer(score, x)
    assert elite.scores == [1.0, 2.0, 2.0, 3.0]
    assert [m.tolist() for m in elite.members] == [c.tolist(), a.tolist(), b.tolist(), d.tolist()]


def test_walk_memory_records_when_each_value_left_each_position(rng):
    n = 7
    x = rng.permutation(n)
    memory, seen = WalkMemory(x), np.zeros((n, n), dtype=np.int64)
    path, last = [], x.copy()
    for step in range(1, 40):
        y = last.copy()
        r, s = rng.choice(n, 2, replace=False)
        y[[r, s]] = y[[s, r]]
        for q in (r, s):
            seen[last[q], q] = step
        path.append(y)
        last = y
        if step % 9 == 0:
            memory.watch(np.array(path))
            path = []
    memory.watch(np.array(path).reshape(-1, n))
    np.testing.assert_array_equal(memory.seen, seen)
    np.testing.assert_array_equal(memory.last, last)
    assert memory.count == 39


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_the_forced_swap_is_the_oldest_by_enumeration(rng, n):
    for trial in range(20):
        x, count = rng.permutation(n), 100
        seen = rng.integers(0, count + 1, size=(n, n))
        aspiration = int(rng.integers(0, 100))
        ages = {(r, s): count - min(seen[x[r], s], seen[x[s], r]) for r in range(n) for s in range(r + 1, n)}
        eligible = [(age, -r, -s) for (r, s), age in ages.items() if age > aspiration]
        want = (-max(eligible)[1], -max(eligible)[2]) if eligible else (-1, -1)
        assert oldest_swap(seen, x, count, aspiration) == want


def test_the_forced_swaps_of_several_walks_are_each_walks_own(rng):
    n, walkers, aspiration = 9, 6, 120
    seen = rng.integers(-200, 1, size=(walkers, n, n)).astype(np.int32)
    seen[5] = 0  # no value has been away from any position for long: no swap forced
    X = np.stack([rng.permutation(n) for _ in range(walkers)])
    walks = [4, 0, 5, 2]
    got = oldest_swaps(seen, X, np.array(walks), aspiration)
    assert got.tolist() == [list(oldest_swap(seen[b], X[b], 0, aspiration)) for b in walks]
    assert got[2].tolist() == [-1, -1] and (got[[0, 1, 3]] >= 0).all()


def test_rounds_are_10_n_steps_on_the_cpu_by_default():
    assert build_search(config("tai12a", iterations=500)).period == 120
    assert build_search(config("tai12a", iterations=500, period=7)).period == 7


def test_the_long_term_aspiration_forces_a_swap_made_tabu():
    search = build_search(moves_config(iterations=2400, walkers=4, replace=0, period=30, aspiration=40))
    rounds = rounds_of(search)
    forced = 0
    for before, after in itertools.pairwise(rounds):
        for prev, nxt in zip(before, after):
            moved = np.flatnonzero(nxt[0] != prev[3])
            assert len(moved) in (0, 2)  # where it stood, or one swap from it
            if len(moved):
                forced += 1
                idx = search.nbh.index(*moved.tolist(), 12)
                np.testing.assert_array_equal(nxt[2], [[idx], [nxt[1]]])  # tabu for the walk's tenure
    assert forced > 0


def test_lane_positions_with_a_tenure_per_walk():
    problem = load_problem("qap", "tai12a")
    nbh, rng = problem.neighborhood("swap"), np.random.default_rng(1)
    tenures = np.array([0, 3, 9, 5])
    lanes = [WalkLane(x, np.ones(1), float(problem.evaluate_one(x)[0]), 20)
             for x in (problem.random_solution(rng) for _ in tenures)]
    host = [HostWalk(prepare(problem, nbh, "cpu"), nbh, lane, int(t)) for lane, t in zip(lanes, tenures)]
    x = np.stack([lane.x for lane in lanes])
    kept = LanePositions(lanes, x, tenures, nbh)
    ids = np.zeros((len(lanes), 20), dtype=np.int64)
    for b, walk in enumerate(host):
        for t, (X, _, _) in enumerate(walk):
            before = x[b].copy()
            x[b] = X[0]
            ids[b, t] = nbh.index(*np.flatnonzero(before != x[b]).tolist(), 12)
    kept.took(0, ids, np.full(len(lanes), 20))
    for b, walk in enumerate(host):
        np.testing.assert_array_equal(kept.position(b).tabu, walk.position().tabu)


@pytest.mark.parametrize("options, parameter", [
    ({"walkers": 0}, "walkers"), ({"walkers": 4, "replace": 5}, "replace"), ({"tenures": (1.2, 0.8)}, "tenures"),
    ({"tenures": (1.0,)}, "tenures"), ({"tenures": (0.0, 1.0)}, "tenures"), ({"aspiration": -1}, "aspiration"),
    ({"period": 0}, "period"), ({"elite": 0}, "elite"), ({"strength": 13}, "strength"),
    ({"tabu_memory": "short"}, "tabu_memory"), ({"launch": "block"}, "launch")])
def test_bad_options_name_their_parameter(options, parameter):
    with pytest.raises(OptionError) as error:
        build_search(config(**options))
    assert error.value.parameter == parameter


@pytest.mark.parametrize("instance, extra", [("tai12a", {}), ("tai25a", {"aspiration": 60, "replace": 2}),
                                             ("tai25a", {"period": 150, "tenures": (0.3, 1.7)})])
def test_rounds_at_once_on_cpu_cores_make_the_run_of_steps(monkeypatch, instance, extra):
    rounds = []
    monkeypatch.setattr(CpuRounds, "run", lambda self, *a, run=CpuRounds.run: rounds.append(1) or run(self, *a))
    runs = [solve(config(instance, iterations=3000, walkers=6, **{"period": 40, **extra}, launch=launch))
            for launch in ("step", "round")]
    assert len(rounds) > 3  # the warm-up's, then one a round
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(runs[0].archive, part), getattr(runs[1].archive, part))
    assert runs[0].iterations == runs[1].iterations == 3000
    assert runs[0].walk == runs[1].walk == "host"


def test_too_many_restarted_walks_name_both_flags():
    with pytest.raises(OptionError) as error:
        config(walkers=4, replace=5)
    assert error.value.flagged() == "--replace must be at most --walkers (4), got 5"


def test_several_objectives_or_another_encoding_are_refused():
    with pytest.raises(OptionError) as error:
        build_search(RunConfig("KC10-2fl-1uni", problem="mqap", algorithm="elite", backend="cpu"))
    assert error.value.parameter == "objectives"
    with pytest.raises(OptionError) as error:
        build_search(RunConfig("73-73", problem="ppp", algorithm="elite", backend="cpu"))
    assert error.value.parameter == "algorithm"
    with pytest.raises(OptionError) as error:  # Ro-TS's memory is of swaps
        build_search(RunConfig("020_10_01", problem="flowshop", algorithm="elite", backend="cpu", tabu_memory="rots",
                               objectives=("makespan",)))
    assert error.value.parameter == "tabu_memory"
