"""ILS-3opt: a run depends only on its seed and its iterations (not on chunks or cores), reaches kroA100's
optimum, writes its results folder through `mols run`, and refuses bad options with a clear message."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mols.algorithms.ils3opt.cpu import CpuPopulation
from mols.algorithms.ils3opt.population import max_segment, start_lengths, start_tours
from mols.algorithms.ils3opt.search import run_ils3opt
from mols.cli import app
from mols.errors import MolsError
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists
from mols.problems.tsp.model import tour_lengths
from mols.runner import RunConfig

runner = CliRunner()


def population_after(problem, seed: int, P: int, chunks: list[int]):
    """A CPU population run through the iteration boundaries `chunks` (0, 1, ..., last)."""
    xy, n = problem.xy[0], problem.n
    cand = candidate_lists(xy)
    tours = np.empty((P, n), np.int32)
    start_tours(xy, cand, np.uint64(seed), tours)
    pop = CpuPopulation(xy, cand, seed, tours, tour_lengths(xy, tours, problem.att), max_segment(n), problem.att)
    for a, b in itertools.pairwise(chunks):
        pop.run(a, b)
    return pop


@pytest.mark.parametrize("instance", ["kroA100", "att532", "random:300:5"])
def test_start_lengths_equal_the_reference(instance):
    """The start tours' lengths (Numba, over the cores) equal model.tour_lengths' (NumPy), ATT rounding included."""
    problem = load_tsp(instance)
    xy = problem.xy[0]
    tours = np.empty((6, problem.n), np.int32)
    start_tours(xy, candidate_lists(xy), np.uint64(3), tours)
    tours[3:] = np.random.default_rng(1).permuted(tours[3:], axis=1)
    np.testing.assert_array_equal(start_lengths(xy, tours, problem.att), tour_lengths(xy, tours, problem.att))


def test_chunks_do_not_change_the_run():
    problem = load_tsp("random:150:3")
    one = population_after(problem, 7, 4, [0, 1, 40])
    many = population_after(problem, 7, 4, [0, 1, 2, 5, 17, 40])
    np.testing.assert_array_equal(one.bests, many.bests)
    np.testing.assert_array_equal(one.best_lengths(), many.best_lengths())
    np.testing.assert_array_equal(one.best_lengths(), tour_lengths(problem.xy[0], one.bests, False))
    assert all(sorted(t) == list(range(problem.n)) for t in one.bests)


def test_each_solution_keeps_its_best_and_improves():
    problem = load_tsp("kroA100")
    start = population_after(problem, 1, 3, [0, 1])
    later = population_after(problem, 1, 3, [0, 1, 200])
    assert (later.best_lengths() <= start.best_lengths()).all()


def test_one_core_equals_all_cores():
    problem = load_tsp("random:120:5")
    a = run_ils3opt(problem, "cpu", 8, iterations=160, seed=2, threads=1)
    b = run_ils3opt(problem, "cpu", 8, iterations=160, seed=2)
    np.testing.assert_array_equal(a.lengths, b.lengths)
    np.testing.assert_array_equal(a.tour, b.tour)
    assert a.iterations == 20 and a.ended_by == "iterations"


def test_rkbi_on_the_cpu_descends_and_repeats():
    problem = load_tsp("random:60:2")
    a = run_ils3opt(problem, "cpu-rkbi", 3, iterations=30, seed=1, samples=200, threads=1)
    b = run_ils3opt(problem, "cpu-rkbi", 3, iterations=30, seed=1, samples=200)
    np.testing.assert_array_equal(a.tour, b.tour)
    assert tour_lengths(problem.xy[0], a.tour[None], False)[0] == a.best
    start = population_after(problem, 1, 3, [0])  # the start tours, not descended
    assert a.best < start.best_lengths().min()


def test_kroa100_reaches_its_optimum():
    result = run_ils3opt(load_tsp("kroA100"), "cpu", 8, time_budget=20, target=21282, seed=0)
    assert result.best == 21282 and result.ended_by == "target"
    assert tour_lengths(load_tsp("kroA100").xy[0], result.tour[None], False)[0] == 21282


def test_run_writes_best_tour_and_gap(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--population",
                                 "4", "-i", "400", "-o", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads((out / "run.json").read_text())
    details = record["details"]
    assert details["optimum"] == 21282 and details["population"] == 4 and details["iterations_per_solution"] == 100
    assert details["gap_percent"] == pytest.approx(100 * (details["best_length"] / 21282 - 1))
    front = (out / "front.csv").read_text().splitlines()
    assert len(front) == 2 and int(front[1].split(",")[0]) == details["best_length"]
    tour = np.array(front[1].split(",")[1].split(), dtype=np.int64)
    assert tour_lengths(load_tsp("kroA100").xy[0], tour[None], False)[0] == details["best_length"]
    assert record["config"]["strategy"] == "cpu" and record["algorithm"] == "ils3opt"


@pytest.mark.parametrize("args, message", [
    (["kroA100", "-p", "tsp", "-a", "ils", "--strategy", "best"], "unknown strategy"),
    (["020_10_01", "-a", "ils", "--strategy", "cpu"], "--strategy runs ILS-3opt: give it with --problem tsp"),
    (["kroA100", "-p", "tsp", "-a", "hc", "--strategy", "cpu"], "--algorithm hc does not take --strategy (only ils)"),
    (["kroA100", "-p", "tsp", "-a", "ils", "--strength", "3", "--population", "8"], "--population is ILS-3opt's"),
    (["kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--population", "0"], "at least 1"),
    (["kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--evaluations", "10"], "does not take"),
    (["kroA100", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--merge", "4", "--population", "8"],
     "--merge needs at least 200 cities"),
    (["lin318", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--merge", "3", "--population", "8"],
     "a divisor of --population 8"),
    (["tai12a", "-p", "qap", "-a", "ils", "--merge", "4"], "--merge is ILS-3opt's"),
    (["lin318", "-p", "tsp", "-a", "ils", "-n", "2opt", "--lists", "quadrant"], "--lists is ILS-3opt's"),
    (["lin318", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--lists", "far"], "far"),
    (["random:6:1", "-p", "tsp"], ("--algorithm ils (ILS-3opt) needs at least 8 cities (a double bridge and 3-opt "
                                   "moves), got 6; choose tabu for fewer")),
])
def test_bad_options_are_clear_errors(tmp_path, args, message):
    result = runner.invoke(app, ["run", *args, "-o", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_bitsp_and_tiny_instances_are_refused():
    with pytest.raises(MolsError, match="at least 8 cities"):
        run_ils3opt(load_tsp("random:6:1"), "cpu", 1, iterations=1)
    with pytest.raises(MolsError, match="strategy"):
        RunConfig(instance="kroA100", problem="tsp", algorithm="ils", strategy="gpu")


def test_merged_run_writes_its_islands(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "lin318", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--population", "8",
                                 "--merge", "4", "-i", "640", "-o", str(out)])
    assert result.exit_code == 0, result.output
    details = json.loads((out / "run.json").read_text())["details"]
    assert details["merge_island"] == 4 and details["iterations_per_solution"] == 96  # 80 rounded up to rounds
    assert len(set(details["lengths"][:4])) == 1 and len(set(details["lengths"][4:])) == 1


def test_quadrant_lists_reach_fl1577s_optimum_where_the_nearest_stall(tmp_path):
    """Two solutions, 10,000 iterations each, seed 0: the nearest 40 leave one tour 5.4 % above the optimum (its
    cluster's cities cannot be linked to another's); quadrant lists end both at it. run.json says which lists."""
    problem = load_tsp("fl1577")
    nearest = run_ils3opt(problem, "cpu", 2, iterations=20_000, seed=0)
    quadrant = run_ils3opt(problem, "cpu", 2, iterations=20_000, seed=0, lists="quadrant")
    assert nearest.lengths.max() > 22249 and (quadrant.lengths == 22249).all()
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "fl1577", "-p", "tsp", "-a", "ils", "--strategy", "cpu", "--population", "2",
                                 "-i", "200", "--lists", "quadrant", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text())["details"]["candidate_lists"] == "quadrant"


@pytest.mark.parametrize("given, lists", [([], "quadrant"), (["--lists", "nearest"], "nearest")])
def test_or3opt_runs_on_quadrant_lists_unless_told(tmp_path, given, lists):
    """or3opt's (here its twin's) candidate lists are the quadrant ones by default, the paper's nearest when asked;
    the same seed with the other lists walks other tours."""
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", "lin318", "-p", "tsp", "-a", "ils", "--strategy", "cpu-or3opt", "--population",
                                 "4", "-i", "400", "-o", str(out), *given])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text())["details"]["candidate_lists"] == lists
    problem = load_tsp("lin318")
    default = run_ils3opt(problem, "cpu-or3opt", 4, iterations=400, seed=0)
    chosen = run_ils3opt(problem, "cpu-or3opt", 4, iterations=400, seed=0, lists=lists)
    assert (default.lengths == chosen.lengths).all() == (lists == "quadrant")


@pytest.mark.parametrize("given", [["-a", "ils"], [], ["--population", "8"]])
def test_tsp_ils_on_the_cpu_runs_or3opts_twin(tmp_path, given):
    """-p tsp (-a ils) -b cpu without a strategy runs cpu-or3opt, not the generic ILS from a random tour: a short run
    ends within a few % of lin318's optimum; ILS-3opt's own options apply to it."""
    result = runner.invoke(app, ["run", "lin318", "-p", "tsp", *given, "-b", "cpu", "-i", "1024", "-o",
                                 str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    details = json.loads((tmp_path / "r" / "run.json").read_text())["details"]
    assert details["strategy"] == "cpu-or3opt" and details["gap_percent"] < 3
    assert details["population"] == (8 if given[:1] == ["--population"] else 16)
