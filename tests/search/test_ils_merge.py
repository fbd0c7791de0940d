"""Merged ILS-3opt rounds (ils_merge): the selection is the best set of disjoint spans (against brute force), merged
gains add up exactly (every round's incumbent length is its tour's full length), and a merged run depends only on
its seed and its rounds (not on chunks or cores)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.ils3opt.cpu import CpuPopulation
from mols.algorithms.ils3opt.merge import MergedRounds, merge_window, select_spans
from mols.algorithms.ils3opt.population import max_segment, start_tours
from mols.algorithms.ils3opt.search import run_ils3opt
from mols.errors import MolsError
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists
from mols.problems.tsp.model import tour_lengths


def brute_force(deltas, spans, n):
    """The largest score (gain, then the number of spans) of a set of solutions with deltas <= 0 and non-empty
    spans whose edge ranges lo - 1 .. hi are disjoint (spans touching 0 or n - 1: the whole cycle)."""
    ok = [s for s in range(len(deltas)) if deltas[s] <= 0 and spans[s, 0] <= spans[s, 1]]

    def edges(s):
        lo, hi = spans[s]
        return set(range(-1, n)) if lo <= 0 or hi >= n - 1 else set(range(lo - 1, hi + 1))

    best = (0, 0)
    for r in range(1, len(ok) + 1):
        for subset in itertools.combinations(ok, r):
            sets = [edges(s) for s in subset]
            if sum(map(len, sets)) == len(set().union(*sets)):
                best = max(best, (-sum(deltas[s] for s in subset), r))
    return best


@pytest.mark.parametrize("seed", range(40))
def test_selection_is_the_best_set_of_disjoint_spans(seed):
    rng = np.random.default_rng(seed)
    n, P = 40, int(rng.integers(1, 9))
    lo = rng.integers(0, n, P)
    spans = np.stack([lo, np.minimum(n - 1, lo + rng.integers(-1, 12, P))], axis=1).astype(np.int64)
    deltas = rng.integers(-6, 3, P).astype(np.int64)
    chosen = select_spans(deltas, spans, n)
    assert list(chosen) == sorted(set(chosen.tolist()))
    gain = -int(deltas[chosen].sum())
    assert (gain, len(chosen)) == brute_force(deltas, spans, n)
    assert (deltas[chosen] <= 0).all() and (spans[chosen, 0] <= spans[chosen, 1]).all()


def merged_population(problem, seed: int, P: int, chunks: list[int], round_iterations: int = 8, island: int = 0):
    xy, n = problem.xy[0], problem.n
    cand = candidate_lists(xy)
    tours = np.empty((P, n), np.int32)
    start_tours(xy, cand, np.uint64(seed), tours)
    pop = CpuPopulation(xy, cand, seed, tours, tour_lengths(xy, tours, problem.att), max_segment(n), problem.att)
    island = island or P
    merged = MergedRounds(pop, seed, n, merge_window(n, max_segment(n)), island, round_iterations)
    for a, b in itertools.pairwise(chunks):
        merged.run(a, b)
        lengths = np.repeat(merged.lengths, island)
        np.testing.assert_array_equal(tour_lengths(xy, pop.bests, problem.att), lengths)
        np.testing.assert_array_equal(pop.best_lengths(), lengths)
        firsts = pop.bests[::island]
        assert (pop.bests == np.repeat(firsts, island, axis=0)).all() and (pop.tours == pop.bests).all()
        assert all((pop.pos[s][pop.tours[s]] == np.arange(n)).all() for s in range(P))
    return pop, merged


def test_merged_gains_add_up_to_the_incumbent_length():
    problem = load_tsp("random:400:2")
    pop, merged = merged_population(problem, 3, 12, [0, 1, 9, 17, 25, 33, 41])
    assert merged.merged > 5  # several rounds merged several solutions' spans
    assert sorted(pop.bests[0]) == list(range(problem.n))


def test_islands_keep_their_own_tours():
    problem = load_tsp("random:300:2")
    pop, merged = merged_population(problem, 1, 12, [0, 1, 17, 33], island=4)
    assert len(merged.lengths) == 3 and len({tuple(t) for t in pop.bests[::4]}) == 3


def test_merged_chunks_do_not_change_the_run():
    problem = load_tsp("random:300:6")
    one, _ = merged_population(problem, 2, 6, [0, 1, 41])
    many, _ = merged_population(problem, 2, 6, [0, 1, 9, 17, 41])
    np.testing.assert_array_equal(one.bests, many.bests)


def test_merged_run_on_one_core_equals_all_cores_and_improves():
    problem = load_tsp("random:300:1")
    a = run_ils3opt(problem, "cpu", 8, iterations=8 * 64, seed=5, threads=1, merge=8)
    b = run_ils3opt(problem, "cpu", 8, iterations=8 * 64, seed=5, merge=8)
    plain = run_ils3opt(problem, "cpu", 8, iterations=0, seed=5)  # the first descents only
    np.testing.assert_array_equal(a.tour, b.tour)
    assert a.best == b.best == tour_lengths(problem.xy[0], a.tour[None], False)[0] < plain.best
    assert a.iterations == 64 and (a.lengths == a.best).all()


def test_merge_refuses_small_instances_and_rkbi():
    with pytest.raises(MolsError, match="^merge needs at least"):
        run_ils3opt(load_tsp("kroA100"), "cpu", 4, iterations=8, merge=4)
    with pytest.raises(MolsError, match="first-improvement"):
        run_ils3opt(load_tsp("lin318"), "cpu-rkbi", 4, iterations=8, merge=4)
    with pytest.raises(MolsError, match="a divisor of population 6"):
        run_ils3opt(load_tsp("lin318"), "cpu", 6, iterations=8, merge=4)
