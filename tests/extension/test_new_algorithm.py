"""A search mols does not know, added through the public extension points only: its options dataclass, its Search
subclass (a first-improvement descent over the evaluator's whole-neighborhood `evaluate`) and one registry line; it
then runs through mols.solve with budgets and a monitor, and writes its results folder as `mols run` does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest

import mols
from mols.algorithms.registry import REGISTRY, Algorithm
from mols.errors import OptionError
from mols.search.base import Search
from mols.search.options import SEARCH, AlgorithmOptions, option

ORDERS = ("random", "index")


@dataclass(frozen=True)
class FirstImprovementOptions(AlgorithmOptions):
    order: str = option("random", "First improvement: neighbors tried in a random order, or by index.", SEARCH,
                        choices=ORDERS, folder=lambda order, config: f"o{order}")


class FirstImprovement(Search):
    """Moves to the first neighbor (in `order`) whose objectives sum to less; restarts at a local optimum."""

    def __init__(self, *args, order: str = "random", **kwargs):
        super().__init__(*args, **kwargs)
        self.order = order

    def steps(self) -> Iterator[None]:
        """One step per neighborhood evaluation (the runner checks the budgets, the monitors hear each step)."""
        x, f = self._random_start()
        while self.iterations < self.budget:
            key = self.draw_key()
            with self.profiler.section("evaluation"):
                F = self.evaluator.evaluate(x, key)  # (neighbors, objectives), overwritten by the next call
            ids = self.rng.permutation(len(F)) if self.order == "random" else np.arange(len(F))
            better = ids[F[ids].sum(axis=1, dtype=np.int64) < f.sum(dtype=np.int64)]
            if len(better):
                x, f = self.nbh.apply_many(x, better[:1], key)[0], F[better[0]].copy()
                with self.profiler.section("archiving"):
                    self.archive.add(f[None], x[None])
            self.count_iteration()
            yield
            if not len(better):
                x, f = self._random_start()


FIRST = Algorithm(FirstImprovementOptions, FirstImprovement, lambda options: f"fi-{options.order}",
                  "first-improvement descent")


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(REGISTRY, "fi", FIRST)  # the one line that adds the algorithm


def fronts(backend: str, **options):
    seen = []
    config = mols.RunConfig("020_05_01", algorithm="fi", backend=backend, seed=3, **options)
    result = mols.solve(config, on_iteration=lambda done, size: seen.append((done, size)))
    return config, result, seen


def check(result, seen, iterations: int) -> None:
    assert result.status == "completed" and result.iterations == iterations
    assert [done for done, _ in seen] == list(range(1, iterations + 1)) and seen[-1][1] == len(result.archive)
    problem = mols.load_problem("flowshop", "020_05_01")
    np.testing.assert_array_equal(problem.evaluate(result.archive.X), result.archive.F)


def test_a_registered_algorithm_runs_with_its_options_budgets_and_monitor(registered):
    config, result, seen = fronts("cpu", order="index", iterations=40)
    assert config.options == FirstImprovementOptions("index") and config.label == "fi-index"
    check(result, seen, 40)
    assert result.ended_by == "iterations"
    again = fronts("cpu", order="index", iterations=40)[1]
    np.testing.assert_array_equal(again.archive.F, result.archive.F)
    _, by_evaluations, seen = fronts("cpu", evaluations=7 * result.n_neighbors + 5)
    check(by_evaluations, seen, 7)
    assert by_evaluations.ended_by == "evaluations"


def test_its_options_are_checked_and_named(registered):
    with pytest.raises(OptionError, match="^order: unknown order 'sideways'; choose one of random, index"):
        mols.RunConfig("020_05_01", algorithm="fi", order="sideways")
    with pytest.raises(OptionError, match=r"^algorithm fi does not take tenure \(only tabu or its\)") as err:
        mols.RunConfig("020_05_01", algorithm="fi", tenure=3)
    assert err.value.flagged().startswith("--algorithm fi does not take --tenure")
    with pytest.raises(OptionError, match=r"^algorithm tabu does not take order \(only fi\)"):
        mols.RunConfig("020_05_01", algorithm="tabu", order="index")


def test_it_writes_the_results_folder_mols_run_writes(registered, tmp_path, monkeypatch):
    from mols.cli.run import run_one
    from mols.results import folder_name

    monkeypatch.chdir(tmp_path)
    config, result, _ = fronts("cpu", order="index", iterations=25)
    folder = tmp_path / folder_name(config)
    assert folder.name == "020_05_01-fi-index-insertion-i25-oindex-cpu-s3"
    run_one(config, folder, overwrite=False)
    record = json.loads((folder / "run.json").read_text())
    assert record["algorithm"] == "fi-index" and record["config"]["order"] == "index"
    assert record["status"] == "completed" and record["iterations"] == 25
    assert record["archive_size"] == len(result.archive)


@pytest.mark.gpu
def test_on_the_gpu_it_finds_what_it_finds_on_the_cpu(registered):
    _, cpu, _ = fronts("cpu", iterations=60)
    _, on_gpu, seen = fronts("gpu", iterations=60)
    check(on_gpu, seen, 60)
    np.testing.assert_array_equal(on_gpu.archive.F, cpu.archive.F)
    np.testing.assert_array_equal(on_gpu.archive.X, cpu.archive.X)
