"""Optimising a subset of a problem's objectives (--objectives, Problem.with_objectives): a search on the subset
is the search on a problem that has only those objectives, front.csv still lists every objective, and bad names
are refused naming the option."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from mols.backends import prepare
from mols.cli import app
from mols.errors import MolsError
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import Problem, load_problem
from mols.problems.flowshop.model import Flowshop
from mols.problems.kernels import KernelSet
from mols.reporting.runs import load_run
from mols.runner import RunConfig, solve
from tests.conftest import random_instance

ORDERS = [("makespan", "total_tardiness"), ("total_tardiness", "makespan")]


class ProjectedKernels(KernelSet):
    """full's kernel, writing every objective into a scratch F whose columns NumPy then copies out."""

    def __init__(self, problem: Projected):
        super().__init__(problem)
        self.whole, self.chunkable = problem.whole.kernels, problem.whole.kernels.chunkable

    def data(self):
        return self.whole.data()

    def state_layout(self):
        return self.whole.state_layout()

    def fill_state(self, x, state):
        self.whole.fill_state(x, state)

    def cpu_kernel(self, nbh, incremental=True):
        kernel, k, chunkable = self.whole.cpu_kernel(nbh, incremental), self.problem.whole.n_obj, self.chunkable
        columns = self.problem.columns

        def projected(*args):
            rest, F, first = (args[:-2], args[-2], args[-1:]) if chunkable else (args[:-1], args[-1], ())
            scratch = np.empty((len(F), k), F.dtype)
            kernel(*rest, scratch, *first)
            F[:] = scratch[:, columns]

        return projected


class Projected(Problem):
    """The reference: a problem with only the objectives `names` of `full`, made without with_objectives."""

    kernel_set = ProjectedKernels

    def __init__(self, full: Problem, names: tuple[str, ...]):
        self.whole, self.columns = full, [full.objectives.index(name) for name in names]
        self.name, self.instance, self.n, self.encoding = full.name, full.instance, full.n, full.encoding
        self.dtype, self.objectives = full.dtype, tuple(names)

    def _evaluate(self, X):
        return self.whole.evaluate(X)[:, self.columns]


def same_front(a, b) -> None:
    np.testing.assert_array_equal(a.archive.F, b.archive.F)
    np.testing.assert_array_equal(a.archive.X, b.archive.X)
    assert a.status == b.status == "completed", (a.error, b.error)


@pytest.fixture(scope="module")
def flowshop() -> Flowshop:
    return Flowshop(random_instance(np.random.default_rng(18), 10, 4))


@pytest.mark.parametrize("names", ORDERS + [("makespan",)])
def test_the_kernel_writes_the_columns_chosen_in_their_order(flowshop, rng, names):
    nbh = NEIGHBORHOODS["insertion"]
    subset = flowshop.with_objectives(names)
    full_ev, subset_ev = prepare(flowshop, nbh, "cpu"), prepare(subset, nbh, "cpu")
    columns = [flowshop.objectives.index(name) for name in names]
    assert subset.objectives == names and subset.n_obj == len(names) and subset.full is flowshop
    for x in (flowshop.random_solution(rng) for _ in range(3)):
        np.testing.assert_array_equal(subset_ev.evaluate(x), full_ev.evaluate(x)[:, columns])
        np.testing.assert_array_equal(subset.evaluate_one(x), flowshop.evaluate(x)[columns])
        np.testing.assert_array_equal(subset.evaluate(x[None]), flowshop.evaluate(x[None])[:, columns])


@pytest.mark.parametrize("names", ORDERS)
@pytest.mark.parametrize("options", [{"algorithm": "pls"}, {"algorithm": "pls", "variant": "dominating"},
                                     {"algorithm": "tabu", "partitions": 2}])
def test_a_subset_run_is_the_search_on_a_problem_with_only_those_objectives(flowshop, names, options):
    common = dict(neighborhood="insertion", iterations=40, seed=3, backend="cpu", **options)
    got = solve(flowshop, objectives=names, **common)
    assert got.archive.F.shape[1] == 2
    same_front(got, solve(Projected(flowshop, names), **common))


@pytest.mark.parametrize("problem, instance, names", [("mqap", "KC30-3fl-1uni", ("cost_3", "cost_1")),
                                                      ("mqap", "KC10-2fl-1uni", ("cost_2", "cost_1")),
                                                      ("bitsp", "kroAB100", ("length_kroB100",))])  # of a pair: one
@pytest.mark.parametrize("algorithm", ["pls", "tabu"])
def test_other_problems_subsets_are_the_search_on_those_objectives(problem, instance, names, algorithm):
    full = load_problem(problem, instance)
    nbh = full.neighborhood(RunConfig(instance, problem=problem).neighborhood)
    common = {"neighborhood": nbh, "iterations": 12, "seed": 5, "backend": "cpu", "algorithm": algorithm}
    got = solve(full, objectives=names, **common)
    assert got.archive.F.shape[1] == len(names)
    same_front(got, solve(Projected(full, names), **common))


def test_all_objectives_in_their_order_is_the_problem_itself(flowshop):
    assert flowshop.with_objectives(None) is flowshop
    assert flowshop.with_objectives(("makespan", "tardiness", "n_tardy")) is flowshop
    subset = flowshop.with_objectives(["makespan"])
    assert subset.with_objectives(None) is subset and subset.with_objectives(flowshop.objectives) is flowshop
    assert subset.with_objectives(["n_tardy", "makespan"]).objectives == ("n_tardy", "makespan")


@pytest.mark.parametrize("names, message", [
    (("makespan", "lateness"), "no objective 'lateness'; choose among makespan, total_tardiness, n_tardy"),
    (("makespan", "makespan"), "makespan is given more than once"),
    (("tardiness", "total_tardiness"), "total_tardiness is given more than once"),
    ((), "give one or more of makespan, total_tardiness, n_tardy"),
])
def test_bad_names_are_refused_naming_the_option(flowshop, names, message):
    with pytest.raises(MolsError, match="^objectives: ") as err:
        flowshop.with_objectives(names)
    assert message in str(err.value)


def test_a_problem_without_a_projection_refuses_a_subset(flowshop):
    with pytest.raises(MolsError, match="^objectives: the flowshop problem optimises all its objectives"):
        Projected(flowshop, ("makespan", "n_tardy")).with_objectives(["n_tardy"])


def test_one_objective_takes_a_target():
    config = RunConfig("020_05_01", algorithm="tabu", backend="cpu", iterations=30, objectives="makespan",
                       target=10**6)
    result = solve(config)
    assert result.archive.F.shape[1] == 1 and result.reached is not None and result.reached.iteration == 1
    with pytest.raises(MolsError, match="^target: "):
        solve(RunConfig("020_05_01", backend="cpu", iterations=3, objectives="makespan,tardiness", target=10**6))


def test_a_subset_run_writes_every_objective_and_names_those_optimised(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "30", "--objectives", "tardiness,makespan"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "results" / "020_05_01-pls-nondominated-insertion-i30-objtardiness+makespan-cpu-s0"
    manifest = json.loads((folder / "run.json").read_text())
    assert manifest["objectives"] == ["total_tardiness", "makespan"]
    front = pd.read_csv(folder / "front.csv", dtype={"solution": str})
    assert list(front.columns) == ["makespan", "total_tardiness", "n_tardy", "solution"]
    problem = load_problem("flowshop", "020_05_01")
    X = np.array([list(map(int, s.split())) for s in front["solution"]])
    np.testing.assert_array_equal(front[list(problem.objectives)].to_numpy(), problem.evaluate(X))
    alone = solve(RunConfig("020_05_01", backend="cpu", iterations=30, objectives=("total_tardiness", "makespan")))
    assert sorted(map(tuple, X.tolist())) == sorted(map(tuple, alone.archive.X.tolist()))
    np.testing.assert_array_equal(load_run(folder).F, front[["total_tardiness", "makespan"]].to_numpy())


@pytest.mark.parametrize("objectives, message", [("makespan,lateness", "no objective 'lateness'; choose among"),
                                                 ("makespan,makespan", "given more than once")])
def test_bad_names_exit_1_naming_the_option(tmp_path, objectives, message):
    result = CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "2", "--objectives", objectives,
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    output = " ".join(result.output.split())
    assert "--objectives" in output and message in output
    assert not (tmp_path / "out").exists()
