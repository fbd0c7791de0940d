"""Pareto local search on tiny instances: what it returns, its budget, seeds, stops and failures."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.pls.search import VARIANTS, ParetoLocalSearch
from mols.archive import dominates
from mols.backends import prepare
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems.flowshop.instance import FlowshopInstance
from mols.problems.flowshop.model import Flowshop
from mols.runner import RunConfig, build_search, solve
from tests.search.conftest import check_archive


def pls(problem, iterations=40, seed=0, variant="nondominated", neighborhood="insertion", on_iteration=None,
        cls=ParetoLocalSearch):
    nbh = NEIGHBORHOODS[neighborhood]
    return cls(problem, nbh, prepare(problem, nbh, "cpu"), iterations, np.random.default_rng(seed), on_iteration,
               variant=variant)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("neighborhood", sorted(Flowshop.neighborhoods))
def test_archive_holds_correctly_evaluated_nondominated_permutations(tiny, variant, neighborhood):
    result = pls(tiny, variant=variant, neighborhood=neighborhood).run()
    assert result.status == "completed" and result.error is None
    assert result.iterations == 40
    assert result.n_neighbors == NEIGHBORHOODS[neighborhood].n_neighbors(tiny.n)
    assert result.evaluated_neighbors == 40 * result.n_neighbors
    assert result.starts >= 1
    check_archive(tiny, result.archive)


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_archive(tiny, variant):
    a = pls(tiny, seed=3, variant=variant).run().archive
    b = pls(tiny, seed=3, variant=variant).run().archive
    np.testing.assert_array_equal(a.F, b.F)
    np.testing.assert_array_equal(a.X, b.X)


def test_the_seed_matters(tiny):
    archives = [pls(tiny, iterations=10, seed=s).run().archive for s in range(4)]
    assert len({(a.F.tobytes(), a.X.tobytes()) for a in archives}) > 1


def test_flat_instance_spends_its_budget_on_restarts():
    """Every permutation has the same objectives: each start's neighborhood adds nothing, so each
    iteration is a new start, and the archive keeps the first solution alone."""
    problem = Flowshop(FlowshopInstance("flat", np.full((3, 6), 5), np.zeros(6), seed=None, due_dates="random"))
    budget = 25
    calls = []

    def random_solution(rng):  # a loop that never spends the budget fails here instead of hanging
        calls.append(1)
        if len(calls) > 10 * budget:
            raise AssertionError("PLS keeps restarting without spending its budget")
        return Flowshop.random_solution(problem, rng)

    problem.random_solution = random_solution
    result = pls(problem, iterations=budget).run()
    assert result.status == "completed", result.error
    assert result.iterations == budget
    assert result.starts == budget
    assert len(result.archive) == 1
    check_archive(problem, result.archive)


class Recording(ParetoLocalSearch):
    """Records, for every neighborhood explored after the warm-up, the vector of the member explored
    (checked against the reference evaluation) and what was offered to the start's archive."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offers, self.exploring, self.warm = [], False, False
        pick, explore, add = self.local.pick, self.local.explore, self.local.archive.add

        def recording_pick(r):
            x, f = pick(r)
            np.testing.assert_array_equal(f, self.problem.evaluate(x))
            if self.warm:
                self.offers.append((f.copy(), []))
            return x, f

        def recording_explore(*args):
            self.exploring = self.warm
            explore(*args)
            self.exploring = False

        def recording_add(F, X):
            if self.exploring:  # not a random start
                self.offers[-1][1].append(np.array(F))
            return add(F, X)

        self.local.pick, self.local.explore, self.local.archive.add = recording_pick, recording_explore, recording_add

    def warm_up(self):
        super().warm_up()
        self.warm = True


def test_dominating_variant_only_archives_neighbors_that_dominate_the_current_solution(tiny):
    search = pls(tiny, iterations=60, variant="dominating", cls=Recording)
    result = search.run()
    assert result.status == "completed" and result.iterations == 60
    check_archive(tiny, result.archive)
    assert len(search.offers) == 60
    offered = 0
    for f, batches in search.offers:
        for F in batches:
            offered += len(F)
            assert dominates(F, f).all()
    assert offered > 0


def test_nondominated_variant_also_archives_neighbors_that_do_not_dominate(tiny):
    """The difference between the variants: PLS-≠ offers neighbors that do not dominate the current solution."""
    search = pls(tiny, iterations=60, variant="nondominated", cls=Recording)
    search.run()
    assert any(not dominates(F, f).all() for f, batches in search.offers for F in batches)


@pytest.mark.parametrize("k", [1, 7])
def test_keyboard_interrupt_keeps_the_archive(tiny, k):
    def stop(done, size):
        assert size >= 1
        if done == k:
            raise KeyboardInterrupt

    result = pls(tiny, iterations=40, on_iteration=stop).run()
    assert result.status == "interrupted" and result.error is None
    assert result.iterations == k
    check_archive(tiny, result.archive)


def test_failure_keeps_the_archive_and_the_traceback(tiny):
    def fail(done, size):
        if done == 5:
            raise RuntimeError("device fell off the bus")

    result = pls(tiny, iterations=40, on_iteration=fail).run()
    assert result.status == "failed"
    assert "Traceback" in result.error and "RuntimeError: device fell off the bus" in result.error
    assert result.iterations == 5
    check_archive(tiny, result.archive)
    assert set(result.profile) == {"evaluation", "archiving", "ls process"}


def test_mols_error_during_the_run_is_reported_without_traceback(tiny):
    def fail(done, size):
        raise MolsError("out of patience")

    result = pls(tiny, on_iteration=fail).run()
    assert result.status == "failed" and result.error == "out of patience"
    assert result.iterations == 1


def test_on_iteration_sees_every_iteration_and_the_archive_size(tiny):
    seen = []
    search = pls(tiny, iterations=15, on_iteration=lambda done, size: seen.append((done, size)))
    result = search.run()
    assert [done for done, _ in seen] == list(range(1, 16))
    assert seen[-1][1] == len(result.archive)


def test_bad_variant_and_budget(tiny):
    with pytest.raises(MolsError, match="^variant: unknown PLS variant"):
        pls(tiny, variant="PLS-√")
    with pytest.raises(MolsError, match="^iterations"):
        pls(tiny, iterations=0)


def test_run_config():
    with pytest.raises(TypeError):
        RunConfig(instance="020_05_01", iteration=5)  # misspelt key
    with pytest.raises(MolsError, match="^algorithm: unknown algorithm 'nsga2'"):
        RunConfig(instance="020_05_01", algorithm="nsga2")
    with pytest.raises(MolsError, match="^variant: unknown variant 'bogus'"):
        build_search(RunConfig(instance="020_05_01", backend="cpu", variant="bogus"))
    with pytest.raises(MolsError, match="no such instance"):
        build_search(RunConfig(instance="no_such_instance", backend="cpu"))
    assert RunConfig(instance="x").label == "pls-nondominated"
    assert RunConfig(instance="x", algorithm="tabu").label == "tabu"


def test_negative_seed_is_a_mols_error():
    with pytest.raises(MolsError, match="seed"):
        build_search(RunConfig(instance="020_05_01", backend="cpu", seed=-1))


def test_solve_runs_a_bundled_instance():
    config = RunConfig(instance="020_05_01", backend="cpu", iterations=12, seed=1, variant="dominating",
                       neighborhood="swap")
    result = solve(config)
    assert result.status == "completed" and result.iterations == 12
    check_archive(build_search(config).problem, result.archive)


@pytest.mark.parametrize("changes, message", [
    ({"archive": "gpu", "backend": "cpu"}, "^archive gpu: choose cpu"),
    ({"archive": "disk", "backend": "cpu"}, "^archive: unknown archive 'disk'"),
    ({"archive": "gpu", "algorithm": "tabu", "backend": "cpu"}, r"^algorithm tabu does not take archive \(only pls\)"),
])
def test_archive_option_is_checked(changes, message):
    with pytest.raises(MolsError, match=message):
        build_search(RunConfig(**{"instance": "020_05_01", **changes}))


def test_default_archive_on_the_cpu_backend_is_the_host():
    assert RunConfig("020_05_01", backend="cpu").archive == "cpu"


class Eager(ParetoLocalSearch):
    """Offers the run's archive every neighbor a start accepts, as it accepts it."""

    def _offer_on_host(self, x, f, local):
        F_new, X_new = super()._offer_on_host(x, f, local)
        self.archive.add(F_new, X_new)
        return F_new, X_new


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_run_archive_filled_when_a_start_ends_equals_filling_it_as_it_goes(tiny, variant, seed):
    lazy = pls(tiny, iterations=80, seed=seed, variant=variant).run()
    eager = pls(tiny, iterations=80, seed=seed, variant=variant, cls=Eager).run()
    assert lazy.starts == eager.starts and (variant == "nondominated" or lazy.starts > 1)
    np.testing.assert_array_equal(lazy.archive.F, eager.archive.F)
    np.testing.assert_array_equal(lazy.archive.X, eager.archive.X)


def weakly_dominates(front: np.ndarray, F: np.ndarray) -> bool:
    """Every row of F is weakly dominated by (or equal to) some row of front."""
    return all((front <= f).all(axis=1).any() for f in F)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pls_from_an_initial_population(tiny, variant):
    """The archive starts as the population's front and PLS explores from it: the result weakly dominates the
    population, the first start is the population's (no random solution before it), and the same seed gives
    the same front."""
    X = np.stack([np.random.default_rng(s).permutation(tiny.n) for s in range(15)])
    run = lambda: solve(tiny, neighborhood="insertion", initial=X, variant=variant, iterations=25, seed=4,
                        backend="cpu")
    a, b = run(), run()
    check_archive(tiny, a.archive)
    assert weakly_dominates(a.archive.F, tiny.evaluate(X))
    np.testing.assert_array_equal(a.archive.F, b.archive.F)
    np.testing.assert_array_equal(a.archive.X, b.archive.X)
    one = solve(tiny, neighborhood="insertion", initial=X, variant=variant, iterations=1, seed=4, backend="cpu")
    assert one.starts == 1 and weakly_dominates(one.archive.F, tiny.evaluate(X))


def test_initial_population_errors(tiny):
    with pytest.raises(MolsError, match="initial solution 1"):
        solve(tiny, neighborhood="insertion", initial=[np.arange(tiny.n), np.zeros(tiny.n, dtype=int)], backend="cpu")
    with pytest.raises(MolsError, match="initial"):
        solve(tiny, neighborhood="insertion", initial=np.arange(tiny.n), backend="cpu")
    with pytest.raises(MolsError, match="only pls"):
        solve(tiny, neighborhood="insertion", algorithm="tabu", initial=[np.arange(tiny.n)], backend="cpu")


def test_a_bitsp_problem_object_runs_pls_by_default():
    """Your own biobjective Problem without algorithm= gets PLS-1 (a biTSP is a Tsp whose one-objective default is
    ILS): started from a population, it finds the front it finds with algorithm="pls"."""
    from mols.problems import load_problem

    problem = load_problem("bitsp", "kroAB100")
    X = np.stack([np.random.default_rng(s).permutation(problem.n) for s in range(8)])
    runs = [solve(problem, neighborhood="2opt", initial=X, iterations=20, seed=5, backend="cpu", **given)
            for given in ({}, {"algorithm": "pls"})]
    assert runs[0].archive.F.shape[1] == 2
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
