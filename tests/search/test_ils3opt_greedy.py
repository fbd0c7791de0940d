"""ILS-3opt's greedy-edge start tours (--start-tours greedy): the construction against a plain-Python one, and runs
that start every solution from it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mols.algorithms.ils3opt.cpu import CpuPopulation
from mols.algorithms.ils3opt.greedy import greedy_tour
from mols.algorithms.ils3opt.population import max_segment
from mols.algorithms.ils3opt.search import run_ils3opt
from mols.cli import app
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists
from mols.problems.tsp.model import rounded_distances, tour_lengths


def reference_greedy(xy: np.ndarray, cand: np.ndarray, att: bool) -> list[int]:
    """The same rule in plain Python: candidate edges by (length, lower city, higher city), taken where both cities
    have degree below 2 and the edge closes no cycle; the paths walked from the lowest free end, each next path from
    its free end nearest the last city (the candidate list first, else every city, the lowest index among equals)."""
    n = len(xy)
    edges = sorted({(int(rounded_distances(xy[i], xy[j], att)), min(i, j), max(i, j))
                    for i in range(n) for j in map(int, cand[i])})
    component, adjacent = list(range(n)), [[] for _ in range(n)]
    for _, i, j in edges:
        if len(adjacent[i]) < 2 and len(adjacent[j]) < 2 and component[i] != component[j]:
            old = component[i]
            component = [component[j] if c == old else c for c in component]
            adjacent[i].append(j)
            adjacent[j].append(i)
    free = [c for c in range(n) if len(adjacent[c]) < 2]
    tour, current = [], free[0]
    while True:
        previous = None
        while True:
            tour.append(current)
            following = [w for w in adjacent[current] if w != previous and w not in tour]
            if not following:
                break
            previous, current = current, following[0]
        if len(tour) == n:
            return tour
        ends = [c for c in free if c not in tour]
        listed = [int(j) for j in cand[current] if int(j) in ends]
        current = listed[0] if listed else min(ends, key=lambda c: (((xy[current] - xy[c]) ** 2).sum(), c))


@pytest.mark.parametrize("instance, quadrant", [("random:120:4", False), ("random:120:4", True), ("kroA100", True),
                                                ("att532", False)])
def test_the_greedy_tour_equals_the_plain_construction(instance, quadrant):
    problem = load_tsp(instance)
    xy = problem.xy[0]
    cand = candidate_lists(xy, 8, quadrant)  # short lists: many fragments to join
    tour = greedy_tour(xy, cand, problem.att)
    assert sorted(tour.tolist()) == list(range(problem.n))
    assert tour.tolist() == reference_greedy(xy, cand, problem.att)


def test_ties_are_broken_by_the_cities():
    """A grid: every side of length 1 ties; the construction is the same every time and equals the plain one."""
    xy = np.array([(x, y) for x in range(6) for y in range(5)], dtype=np.float64)
    cand = candidate_lists(xy, 6)
    tour = greedy_tour(xy, cand, False)
    assert tour.tolist() == greedy_tour(xy, cand, False).tolist() == reference_greedy(xy, cand, False)


def test_every_solution_starts_from_the_greedy_tour():
    """A run of one ILS iteration a solution with greedy start tours equals a CPU population's first descents of the
    greedy tour, copied to every solution, and one iteration after them."""
    problem = load_tsp("lin318")
    xy, n = problem.xy[0], problem.n
    cand = candidate_lists(xy)
    tours = np.repeat(greedy_tour(xy, cand, problem.att)[None], 4, axis=0)
    pop = CpuPopulation(xy, cand, 5, tours, tour_lengths(xy, tours, problem.att), max_segment(n), problem.att)
    pop.run(0, 1)
    pop.run(1, 2)
    result = run_ils3opt(problem, "cpu", 4, iterations=4, seed=5, start="greedy", lists="nearest")
    np.testing.assert_array_equal(result.lengths, pop.best_lengths())
    nearest = run_ils3opt(problem, "cpu", 4, iterations=4, seed=5, lists="nearest")
    assert not np.array_equal(nearest.lengths, result.lengths)


def test_the_option_reaches_run_json_and_the_folder_name(tmp_path):
    args = ["run", "lin318", "-p", "tsp", "-a", "ils", "--strategy", "cpu-or3opt", "-i", "64", "--start-tours"]
    done = CliRunner().invoke(app, [*args, "greedy", "-o", str(tmp_path / "g")])
    assert done.exit_code == 0, done.output
    details = json.loads((tmp_path / "g" / "run.json").read_text())["details"]
    assert details["start_tours"] == "greedy"
    wrong = CliRunner().invoke(app, [*args, "best"])
    assert wrong.exit_code == 1 and "--start-tours" in wrong.output
