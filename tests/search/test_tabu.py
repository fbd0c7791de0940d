"""Aggregated tabu search: weight vectors, normalisation, budget split, tabu memory, and what it returns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.descent.its import IteratedTabu
from mols.algorithms.tabu import search as tabu_search
from mols.algorithms.tabu import walks
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.walks import host_walk, selection_for
from mols.algorithms.tabu.weights import check_weights, normalising_coefficients, simplex_lattice
from mols.backends import prepare
from mols.backends.base import column_bounds
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.neighborhoods.crowns import crowns
from mols.problems import load_problem, problem_entry
from mols.problems.flowshop.model import Flowshop
from mols.problems.weierstrass import load_weierstrass
from mols.runner import RunConfig, build_search, solve
from tests.search.conftest import check_archive


def tabu(problem, iterations=30, seed=0, neighborhood="insertion", evaluator=None, cls=AggregatedTabu,
         on_iteration=None, **kwargs):
    nbh = NEIGHBORHOODS[neighborhood]
    evaluator = evaluator or prepare(problem, nbh, "cpu")
    return cls(problem, nbh, evaluator, iterations, np.random.default_rng(seed), on_iteration, **kwargs)


def test_simplex_lattice_3_3():
    W = simplex_lattice(3, 3)
    assert W.shape == (10, 3)
    np.testing.assert_allclose(W.sum(axis=1), 1.0)
    assert np.isin(np.round(W * 3, 9), [0, 1, 2, 3]).all()
    assert len({tuple(np.round(w * 3).astype(int)) for w in W}) == 10
    np.testing.assert_array_equal(W[0], [1, 0, 0])  # the single objectives are among them


@pytest.mark.parametrize("k, p, count", [(1, 4, 1), (2, 1, 2), (2, 4, 5), (3, 1, 3), (3, 4, 15), (4, 2, 10)])
def test_simplex_lattice_sizes(k, p, count):
    W = simplex_lattice(k, p)
    assert W.shape == (count, k)
    np.testing.assert_allclose(W.sum(axis=1), 1.0)
    assert (W >= 0).all()


def test_check_weights_normalises():
    np.testing.assert_allclose(check_weights([2, 1, 1], 3), [0.5, 0.25, 0.25])
    np.testing.assert_allclose(check_weights((0, 0, 3.0), 3), [0, 0, 1])


@pytest.mark.parametrize("weights", [[1, 0], [1, 0, 0, 0], [1, -1, 1], [0, 0, 0], [np.nan, 1, 1], [np.inf, 1, 1], []])
def test_check_weights_rejects(weights):
    with pytest.raises(MolsError, match="^weights: expected 3"):
        check_weights(weights, 3)


def test_normalising_coefficients_divide_by_the_range():
    F = np.array([[10, 100, 3], [14, 300, 3]])
    f = np.array([12, 50, 3])
    # ranges 4, 250 and 0 (taken as 1)
    np.testing.assert_allclose(normalising_coefficients(np.array([0.5, 0.25, 0.25]), *column_bounds(F), f),
                               [0.125, 0.001, 0.25])
    np.testing.assert_allclose(normalising_coefficients(np.array([1.0, 0, 0]), *column_bounds(F[:0]), f), [1.0, 0, 0])


@pytest.mark.parametrize("backend", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_neighborhood_bounds_are_each_solutions_column_bounds(tiny, backend):
    """The bounds that the coefficients of runs side by side come from: for each solution, the lowest and highest
    value of each objective over its whole neighborhood (on the GPU, three solutions in the lanes of one launch)."""
    search = tabu(tiny, iterations=10, evaluator=prepare(tiny, NEIGHBORHOODS["insertion"], backend))
    rng = np.random.default_rng(4)
    xs = [tiny.random_solution(rng) for _ in range(3)]
    lo, hi = walks.neighborhood_bounds(search.evaluator, xs, [None] * 3)
    assert (walks.lane_walker(search.evaluator, 3) is None) == (backend == "cpu")
    for b, x in enumerate(xs):
        F = tiny.evaluate(search.nbh.apply_many(x, np.arange(search.nbh.n_neighbors(tiny.n))))
        np.testing.assert_array_equal(lo[b], F.min(axis=0))
        np.testing.assert_array_equal(hi[b], F.max(axis=0))


@pytest.mark.parametrize("neighborhood", sorted(Flowshop.neighborhoods))
def test_archive_holds_correctly_evaluated_nondominated_permutations(tiny, neighborhood):
    result = tabu(tiny, iterations=40, neighborhood=neighborhood).run()
    assert result.status == "completed" and result.error is None
    assert result.iterations == 40
    assert result.starts == 10  # one random start per weight vector of the default lattice
    check_archive(tiny, result.archive)


def test_explicit_weights(tiny):
    result = tabu(tiny, iterations=25, weights=(1, 0, 0)).run()
    assert result.status == "completed" and result.iterations == 25 and result.starts == 1
    check_archive(tiny, result.archive)


def test_same_seed_same_archive(tiny):
    a, b = (tabu(tiny, iterations=30, seed=9).run().archive for _ in range(2))
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(a.X, b.X)


def test_the_seed_matters(tiny):
    archives = [tabu(tiny, iterations=10, seed=s, weights=(1, 1, 1)).run().archive for s in range(4)]
    assert len({(a.F.tobytes(), a.X.tobytes()) for a in archives}) > 1


class SplitRecorder(AggregatedTabu):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.shares = []  # each run's share of the budget

    def _start_run(self, w, budget, *args, **kwargs):
        self.shares.append(budget)
        return super()._start_run(w, budget, *args, **kwargs)


@pytest.mark.parametrize("iterations, partitions, expected", [
    (23, 3, [3, 3, 3, 2, 2, 2, 2, 2, 2, 2]),
    (30, 3, [3] * 10),
    (10, 3, [1] * 10),
    (5, 1, [2, 2, 1]),
])
def test_budget_is_split_evenly_over_the_weight_vectors(tiny, iterations, partitions, expected):
    search = tabu(tiny, iterations=iterations, partitions=partitions, cls=SplitRecorder)
    result = search.run()
    assert search.shares == expected
    assert sum(search.shares) == result.iterations == iterations
    assert result.starts == len(expected)


class Wrapped:
    """An evaluator or a selection around another: what a subclass does not change, the inner one does."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def wrap_selection(monkeypatch):
    """wrap(ev, cls): the host walk on `ev` chooses through cls(its selection), which wrap returns."""

    def wrap(ev, cls):
        wrapper = cls(selection_for(ev))
        monkeypatch.setattr(walks, "selection_for", lambda e: wrapper if e is ev else selection_for(e))
        return wrapper

    return wrap


class Recording(Wrapped):
    """A selection that records the solutions whose neighborhoods tabu search asks about, per run."""

    def __init__(self, inner):
        super().__init__(inner)
        self.runs: list[list[np.ndarray]] = []

    def __call__(self, x, c, step, threshold, key=None):
        self.runs[-1].append(np.array(x))
        return self.inner(x, c, step, threshold, key)

    def allow_all(self):
        self.runs.append([])
        self.inner.allow_all()


def returns_to_previous(runs) -> int:
    """How many steps go straight back to the solution of the step before."""
    return sum(np.array_equal(xs[t + 1], xs[t - 1]) for xs in runs for t in range(1, len(xs) - 1))


@pytest.mark.parametrize("neighborhood", sorted(Flowshop.neighborhoods))
def test_tabu_memory_keeps_the_search_from_stepping_back(tiny, neighborhood, wrap_selection):
    """With a tenure longer than the run, the move back to the previous solution stays tabu, and
    aspiration cannot free it (its score is no better than the best so far). With tenure 0 the
    same search oscillates between a local optimum and its best neighbor. The run is kept shorter
    than the neighborhood, so that some move is always admissible (step s has at most s tabu moves, 2s where a
    move forbids itself too, as 3-exchange's; when all are tabu, the rule takes the best of all)."""
    nbh = NEIGHBORHOODS[neighborhood]
    iterations = nbh.n_neighbors(tiny.n) // (2 if nbh.forbids_itself else 1)

    def visited(tenure):
        ev = prepare(tiny, nbh, "cpu")
        recording = wrap_selection(ev, Recording)
        result = tabu(tiny, iterations=iterations, neighborhood=neighborhood, evaluator=ev, weights=(1, 1, 1),
                      tenure=tenure).run()
        assert result.status == "completed", result.error
        check_archive(tiny, result.archive)
        assert len(recording.runs) == 1 and len(recording.runs[0]) == iterations - 1
        return recording.runs

    assert returns_to_previous(visited(tenure=0)) > 0
    assert returns_to_previous(visited(tenure=100)) == 0


class MoveLog(Wrapped):
    """A selection that records each step's choice and each block the search sets."""

    def __init__(self, inner):
        super().__init__(inner)
        self.log = []

    def __call__(self, x, c, step, threshold, key=None):
        idx, score, f = self.inner(x, c, step, threshold, key)
        self.log.append(("step", step, idx, score, threshold))
        return idx, score, f

    def forbid(self, idx, until):
        self.log.append(("block", idx, until))
        self.inner.forbid(idx, until)

    def allow_all(self):
        self.log.append(("clear",))
        self.inner.allow_all()


@pytest.mark.parametrize("tenure", [0, 3])
def test_each_move_makes_its_inverse_tabu_for_tenure_steps(tiny, tenure, wrap_selection):
    nbh = NEIGHBORHOODS["insertion"]
    ev = prepare(tiny, nbh, "cpu")
    moves = wrap_selection(ev, MoveLog)
    tabu(tiny, iterations=24, evaluator=ev, partitions=1, tenure=tenure).run()  # 3 weight vectors, 8 steps each
    log = moves.log
    assert [entry[0] for entry in log] == ["clear", *["step", "block"] * 7] * 3
    best = np.inf
    for entry, nxt in itertools.pairwise(log):
        if entry[0] == "clear":
            best, until = np.inf, {}
        if entry[0] != "step":
            continue
        _, step, idx, score, threshold = entry
        assert step == 0 or threshold == best  # aspiration against the best score of the run so far
        best = min(threshold, score)
        if until.get(idx, 0) > step:  # a tabu move, taken by aspiration
            assert score < threshold
        assert nxt == ("block", nbh.inverse(idx, tiny.n), step + 1 + tenure)
        until[nxt[1]] = nxt[2]


def test_bad_tabu_options(tiny):
    with pytest.raises(MolsError, match="^weights: expected 3"):
        tabu(tiny, weights=(1, 2))
    with pytest.raises(MolsError, match="^partitions must be at least 1, got 0"):
        tabu(tiny, partitions=0)
    with pytest.raises(MolsError, match="^tenure must be at least 0, got -1"):
        tabu(tiny, tenure=-1)
    with pytest.raises(MolsError, match="^weights"):
        build_search(RunConfig(instance="020_05_01", backend="cpu", algorithm="tabu", weights=(1.0, 2.0)))


def test_huge_tenure_is_rejected_or_runs(tiny):
    try:
        search = tabu(tiny, iterations=10, weights=(1, 1, 1), tenure=2**63)
    except MolsError as err:
        assert "tenure" in str(err)
        return
    result = search.run()
    assert result.status == "completed", result.error


def test_too_many_weight_vectors_for_the_budget_is_an_error(tiny):
    with pytest.raises(MolsError, match="^partitions 100000 gives"):
        tabu(tiny, iterations=10, partitions=100000)


def test_tabu_only_options_are_refused_for_pls():
    for option, value in (("weights", (1.0, 0.0, 0.0)), ("tenure", 5), ("partitions", 4)):
        with pytest.raises(MolsError, match=f"^algorithm pls does not take {option}"):
            RunConfig(instance="020_05_01", algorithm="pls", **{option: value})
    with pytest.raises(MolsError, match=r"^algorithm tabu does not take variant \(only pls\)"):
        RunConfig(instance="020_05_01", algorithm="tabu", variant="dominating")


def test_every_misplaced_option_is_named_at_once():
    with pytest.raises(MolsError) as err:
        RunConfig(instance="020_05_01", algorithm="pls", tenure=5, strength=3, run_length=9, partitions=4)
    assert str(err.value) == ("algorithm pls does not take partitions (only tabu), tenure (only tabu or its), "
                              "strength (only its or elite or ils), run_length (only its)")
    assert err.value.flagged() == ("--algorithm pls does not take --partitions (only tabu), --tenure (only tabu or "
                                   "its), --strength (only its or elite or ils), --run-length (only its)")


def test_its_ignores_the_lattice_it_does_not_use():
    """A budget smaller than the default lattice (10 vectors) is fine for ITS, which uses one vector."""
    result = solve(RunConfig(instance="020_05_01", algorithm="its", backend="cpu", iterations=4, run_length=2))
    assert result.status == "completed" and result.iterations == 4


def test_default_tenure_is_the_number_of_jobs(tiny):
    assert tabu(tiny).tenure == tiny.n
    assert tabu(tiny, tenure=0).tenure == 0


def test_interrupt_keeps_the_archive(tiny):
    def stop(done, size):
        if done == 4:
            raise KeyboardInterrupt

    result = tabu(tiny, iterations=30, on_iteration=stop).run()
    assert result.status == "interrupted" and result.iterations == 4
    check_archive(tiny, result.archive)


@pytest.fixture
def batched_walks(monkeypatch):
    """The search walks on the device (walks.device_walk) where its evaluator is a Batched stand-in."""
    monkeypatch.setattr(tabu_search, "device_walk", lambda ev, *walk: getattr(ev, "device_walk", lambda *a: None)(*walk))


class Batched(Wrapped):
    """An evaluator whose walk comes in batches of `size` steps, as the device's does (gpu_walk.py):
    the host walk's steps, grouped."""

    def __init__(self, inner, nbh, size):
        super().__init__(inner)
        self.nbh, self.size = nbh, size
        self.batches, self.seen = 0, []

    def device_walk(self, x, c, threshold, steps, tenure, keys=None, tabu=None):
        steps = list(host_walk(self.inner, self.nbh, x, c, threshold, steps, tenure, keys, tabu))
        for first in range(0, len(steps), self.size):
            self.batches += 1
            X, scores, F = (np.concatenate(part) for part in zip(*steps[first:first + self.size]))
            self.seen.append(F)
            yield X, scores, F


@pytest.mark.parametrize("problem, instance, algorithm", [("flowshop", "020_05_01", AggregatedTabu),
                                                          ("qap", "tai12a", AggregatedTabu),
                                                          ("qap", "tai12a", IteratedTabu)])
def test_a_walk_in_batches_gives_the_archive_of_a_walk_step_by_step(problem, instance, algorithm, batched_walks):
    """New bests and archive offers are found within a batch as they are step by step: with one
    objective the best solution, with three every solution visited (none is left undominated), in
    the same order."""
    problem = load_problem(problem, instance)
    nbh = NEIGHBORHOODS[problem_entry(problem.name).neighborhood]
    runs = []
    for size in (None, 7):
        ev = prepare(problem, nbh, "cpu")
        ev = ev if size is None else Batched(ev, nbh, size)
        search = algorithm(problem, nbh, ev, 200, np.random.default_rng(4), None, tenure=5)
        runs.append(search.run())
        assert runs[-1].status == "completed" and runs[-1].iterations == 200
    assert ev.batches > 200 // 7
    assert [run.walk for run in runs] == ["host", "device"]  # run.json says where the steps ran
    archive = runs[1].archive
    assert all((archive.F <= f).all(axis=1).any() for f in np.concatenate(ev.seen))
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
    check_archive(problem, runs[1].archive)


def test_draw_keys_are_the_keys_draw_key_gives_in_turn(tiny):
    """draw_keys(m) gives the next m keys, consecutive counters, and moves past them (not when told not to);
    a neighborhood that samples nothing has none."""
    problem, nbh = load_weierstrass("2"), crowns(8)
    a, b = (AggregatedTabu(problem, nbh, prepare(problem, nbh, "cpu"), 10, np.random.default_rng(1)) for _ in range(2))
    peeked = a.draw_keys(3, advance=False)[:]
    keys = a.draw_keys(3)
    assert len(keys) == 3 and keys[:].dtype == np.uint64 and keys[:].shape == (3, 2) and keys[1:2].shape == (1, 2)
    np.testing.assert_array_equal(peeked, keys[:])
    np.testing.assert_array_equal([keys[t] for t in range(3)], keys[:])
    np.testing.assert_array_equal(keys[:], [b.draw_key() for _ in range(3)])
    np.testing.assert_array_equal(a.draw_key(), b.draw_key())
    assert tabu(tiny).draw_keys(3) is None and tabu(tiny).draw_key() is None


class KeyLog(Batched):
    """A walk in batches (as the device's) that records the counters of the draw keys it is given."""

    def __init__(self, inner, nbh, size):
        super().__init__(inner, nbh, size)
        self.counters = []

    def device_walk(self, x, c, threshold, steps, tenure, keys=None, tabu=None):
        self.counters += keys[:][:, 1].tolist()
        return super().device_walk(x, c, threshold, steps, tenure, keys, tabu)


@pytest.mark.parametrize("algorithm", [AggregatedTabu, IteratedTabu])
def test_a_sampled_walk_in_batches_draws_with_the_keys_of_the_host_walk(algorithm, batched_walks):
    """The walk gets one key per step, the keys the host walk draws one by one (the warm-up draws 1 and 2,
    and its walk takes the run's keys without moving past them), and it finds the same archive."""
    problem, nbh = load_weierstrass("3"), crowns(64)
    runs, searches = [], []
    for ev in (prepare(problem, nbh, "cpu"), KeyLog(prepare(problem, nbh, "cpu"), nbh, 7)):
        searches.append(algorithm(problem, nbh, ev, 40, np.random.default_rng(2), None, tenure=3))
        runs.append(searches[-1].run())
        assert runs[-1].status == "completed" and runs[-1].iterations == 40
    assert ev.counters == list(range(3, 43)) * 2 and ev.batches > 40 // 7  # the warm-up's walk, then the run
    assert searches[0]._draws == searches[1]._draws == 42
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)


def test_the_tabu_memory_takes_32_bits_and_a_budget_beyond_them_is_refused(tiny):
    selection = selection_for(tabu(tiny, tenure=5).evaluator)
    selection.forbid(3, 2**31 - 1)
    assert selection.forbidden_until.dtype == np.int32 and selection.forbidden_until[3] == 2**31 - 1
    assert tabu(tiny, iterations=2**31 - 7, tenure=5).budget == 2**31 - 7
    with pytest.raises(MolsError, match="32 bits, so a run takes at most 2147483641 iterations with tenure 5"):
        tabu(tiny, iterations=2**31 - 6, tenure=5)


class OneArchive(AggregatedTabu):
    """Every run offers straight to the search's archive, in turn: the archive of the runs one after another."""

    def _start_run(self, w, budget, start=None, own_archive=False):
        return super()._start_run(w, budget, start, own_archive=False)


@pytest.mark.parametrize("neighborhood", sorted(Flowshop.neighborhoods))
@pytest.mark.parametrize("seed", range(3))
def test_runs_archives_merged_in_order_equal_one_archive_in_turn(neighborhood, seed):
    """The weight vectors' runs each keep an archive of their own, merged in the vectors' order (so that they
    can walk side by side): the same archive, solution for solution, as offering every solution to one
    archive run after run. A small instance with many equal vectors makes the first-of-equals rule matter."""
    problem = Flowshop(load_problem("flowshop", "020_05_01").instance)
    got, want = (tabu(problem, iterations=600, seed=seed, neighborhood=neighborhood, cls=cls).run()
                 for cls in (AggregatedTabu, OneArchive))
    assert got.status == want.status == "completed"
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(got.archive, part), getattr(want.archive, part))
