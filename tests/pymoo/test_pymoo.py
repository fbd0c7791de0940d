"""mols inside pymoo (CPU): problems evaluated by mols, genetic operators per encoding, mols' searches through
pymoo's minimize with the fronts of mols.solve, and a genetic algorithm chained with PLS-1."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from pymoo.algorithms.moo.nsga2 import NSGA2
from pymoo.optimize import minimize

import mols
from mols.errors import MolsError
from mols.pymoo import PLS, MolsProblem, TabuSearch, mols_budget, operators
from tests.search.test_pls import weakly_dominates

# One small instance of every registered problem (PPP: 1 objective on binary vectors; coloring: integers;
# Weierstrass: reals).
INSTANCES = [("flowshop", "020_05_01"), ("qap", "nug12"), ("mqap", "KC10-2fl-1uni"), ("tsp", "kroA100"),
             ("bitsp", "kroAB100"), ("ppp", "73-73"), ("coloring", "myciel3"), ("weierstrass", "2")]
FLOWSHOP = "020_05_01"


def test_importing_mols_does_not_import_pymoo():
    code = "import sys, mols; sys.exit('pymoo' in sys.modules or 'mols.pymoo' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize("name, instance", INSTANCES)
def test_nsga2_runs_on_every_problem_with_its_operators(name, instance):
    """NSGA-II with operators(problem) on the CPU backend: the last population's F is Problem.evaluate's."""
    problem = MolsProblem(name, instance, backend="cpu")
    assert problem.backend == "cpu" and problem.population.device == "cpu"
    res = minimize(problem, NSGA2(pop_size=12, **operators(problem)), ("n_gen", 3), seed=1)
    X, F = res.pop.get("X"), res.pop.get("F")
    assert X.shape == (12, problem.mols.encoding.size)
    np.testing.assert_array_equal(F, problem.mols.evaluate(X.astype(problem.mols.encoding.dtype)))
    for x in X.astype(problem.mols.encoding.dtype):
        problem.mols.encoding.check(x)


def test_problem_by_name_needs_an_instance():
    with pytest.raises(MolsError, match="instance"):
        MolsProblem("flowshop")


@pytest.mark.parametrize("algorithm, termination, iterations, options", [
    (PLS(), ("n_gen", 30), 30, {}),
    (PLS(variant="dominating"), ("n_iter", 30), 30, {"variant": "dominating"}),
    (TabuSearch(), ("n_eval", 361 * 40 + 100), 40, {"algorithm": "tabu"}),
    (TabuSearch(weights=(0.5, 0.3, 0.2), tenure=5), ("n_gen", 25), 25,
     {"algorithm": "tabu", "weights": (0.5, 0.3, 0.2), "tenure": 5}),
])
def test_searches_through_minimize_give_the_fronts_of_solve(algorithm, termination, iterations, options):
    """minimize(...) with a seed returns as X and F the archive of mols.solve with that seed and the budget the
    termination translates to (n_eval: 361 insertion neighbors per iteration on 20 jobs)."""
    res = minimize(MolsProblem("flowshop", FLOWSHOP, backend="cpu"), algorithm, termination, seed=6)
    want = mols.solve(mols.RunConfig(FLOWSHOP, iterations=iterations, seed=6, backend="cpu", **options))
    np.testing.assert_array_equal(res.F, want.archive.F)
    np.testing.assert_array_equal(res.X, want.archive.X)
    assert res.algorithm.mols_result.iterations == iterations
    assert res.algorithm.evaluator.n_eval == iterations * 361


def test_budget_of_each_termination():
    from pymoo.termination import get_termination

    assert mols_budget(get_termination("n_eval", 1000), 361, 7) == (2, None)
    assert mols_budget(get_termination("n_eval", 10), 361, 7) == (1, None)
    assert mols_budget(get_termination("n_gen", 12), 361, 7) == (12, None)
    assert mols_budget(get_termination("time", 1.5), 361, 7) == (7, 1.5)
    with pytest.raises(MolsError, match="no mols budget"):
        mols_budget(get_termination("fmin", 0.0), 361, 7)


def test_time_termination_stops_the_search():
    res = minimize(MolsProblem("flowshop", FLOWSHOP, backend="cpu"), PLS(iterations=10**7), ("time", 0.3), seed=1)
    assert res.algorithm.mols_result.status == "interrupted"
    assert 0 < res.algorithm.mols_result.iterations < 10**7 and len(res.F)


def test_searches_refuse_other_problems():
    from pymoo.problems import get_problem

    with pytest.raises(MolsError, match="MolsProblem"):
        minimize(get_problem("zdt1"), PLS(), ("n_gen", 2))


def test_nsga2_then_pls_from_its_last_population():
    """The README's example: NSGA-II evaluated by mols, then PLS-1 from its last population. PLS's front weakly
    dominates that population, is the same twice, and is mols.solve's from the same population."""
    problem = MolsProblem("flowshop", FLOWSHOP, backend="cpu")
    ga = minimize(problem, NSGA2(pop_size=30, **operators(problem)), ("n_gen", 8), seed=2)
    runs = [minimize(problem, PLS(initial=ga.pop), ("n_gen", 40), seed=3) for _ in range(2)]
    assert weakly_dominates(runs[0].F, ga.pop.get("F"))
    want = mols.solve(problem.mols, neighborhood="insertion", initial=ga.pop.get("X"), iterations=40, seed=3,
                      backend="cpu")
    for res in runs:
        np.testing.assert_array_equal(res.F, want.archive.F)
        np.testing.assert_array_equal(res.X, want.archive.X)


@pytest.mark.parametrize("algorithm, iterations", [(PLS(), 25), (TabuSearch(weights=(0.5, 0.3, 0.2)), 20)])
def test_pymoo_sees_every_step_of_the_search(algorithm, iterations):
    """One generation per mols step (on the CPU, an iteration): the callback and the history see each, with the
    neighbors evaluated so far and the run's archive then; the last is the run's front."""
    from pymoo.core.callback import Callback

    class Count(Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def notify(self, algorithm):
            self.seen.append((algorithm.n_gen, algorithm.evaluator.n_eval, len(algorithm.pop)))

    count = Count()
    res = minimize(MolsProblem("flowshop", FLOWSHOP, backend="cpu"), algorithm, ("n_gen", iterations), seed=5,
                   callback=count, save_history=True)
    assert [(gen, n_eval) for gen, n_eval, _ in count.seen] == [(g, g * 361) for g in range(1, iterations + 1)]
    assert len(res.history) == iterations and res.algorithm.mols_result.iterations == iterations
    assert count.seen[-1][2] == len(res.F)
    np.testing.assert_array_equal(res.history[-1].pop.get("F"), res.F)


def test_pymoo_sees_the_mols_trace():
    """The run's trace (mols.search.trace) grows as pymoo's generations go (its callback sees the rows so far), and
    is on the result and in the history: its last row is the run's end, the archive that res.F holds."""
    from pymoo.core.callback import Callback

    class Rows(Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def notify(self, algorithm):
            self.seen.append(len(algorithm.trace.rows))

    rows = Rows()
    problem = MolsProblem("flowshop", FLOWSHOP, backend="cpu")
    res = minimize(problem, PLS(), ("n_gen", 200), seed=5, callback=rows, save_history=True)
    trace = res.trace
    assert trace is res.algorithm.trace is res.algorithm.mols_result.trace is res.history[-1].trace
    assert rows.seen[0] == 1 and rows.seen == sorted(rows.seen) and 30 < rows.seen[-1] < 200
    last = trace.last()
    assert (last["iterations"], last["evaluations"], last["archive"]) == (200, res.algorithm.evaluator.n_eval,
                                                                         len(res.F))
    np.testing.assert_array_equal([last[f"best_{name}"] for name in problem.mols.objectives], res.F.min(axis=0))
