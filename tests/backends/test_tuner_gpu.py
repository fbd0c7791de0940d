"""Algorithm 3 in the search, on the device: a search with --tune takes exactly the steps of one without (the same
final archive, vectors and iterations), tunes in its first iterations and remembers the launch, which a later run
takes without tuning again; a launch that fails to compile or launch ends the grid and the search finishes."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.gpu_select import DeviceSelection
from mols.backends import tuning
from mols.backends.launch import DEFAULT_LAUNCH
from mols.backends.tuning import LaunchTuner, TuningCache, cache_path, grid_launch, paper_grid, tuning_key
from mols.runner import RunConfig, build_search

pytestmark = pytest.mark.gpu
# (problem, instance, neighborhood, algorithm, iterations): enough iterations for the grid's TRIALS rounds and more
CASES = [("qap", "nug12", "swap", "tabu", 400),  # device walks after the tuning, whole-step kernel
         ("tsp", "eil101", "swap", "tabu", 600),  # device walks, fused selection
         ("ppp", "73-73", "hamming2", "tabu", 600),  # host walks throughout, a prepare kernel
         ("flowshop", "020_10_01", "insertion", "tabu", 1500),  # 10 weight vectors, side by side after the tuning
         ("weierstrass", "1", "crowns", "tabu", 800),  # float objectives, sampled neighborhood: 224 launches
         ("qap", "nug12", "swap", "hc", 400)]  # hill climbing's selection


@pytest.fixture
def tuning_on(tmp_path, monkeypatch):
    """Tuning on (conftest turns it off), into a cache of this test's."""
    monkeypatch.delenv("MOLS_TUNE", raising=False)
    monkeypatch.setenv("MOLS_CACHE_DIR", str(tmp_path))


def config(case, **options) -> RunConfig:
    problem, instance, nbh, algorithm, iterations = case
    return RunConfig(instance, problem=problem, neighborhood=nbh, algorithm=algorithm, backend="gpu",
                     iterations=iterations, seed=5, **options)


def same_run(got, want) -> None:
    assert (got.status, got.iterations) == (want.status, want.iterations), got.error
    np.testing.assert_array_equal(got.archive.X, want.archive.X)
    np.testing.assert_array_equal(got.archive.F, want.archive.F)


def tuned_run(case, **options):
    """A search with --tune: (its result, its evaluator, its tuner)."""
    search = build_search(config(case, tune=True, **options))
    tuner = search.evaluator.tuner
    assert isinstance(tuner, LaunchTuner)
    return search.run(), search.evaluator, tuner


@pytest.mark.parametrize("case", CASES, ids=["-".join(map(str, case[:4])) for case in CASES])
def test_a_tuned_search_is_the_untuned_one(tuning_on, case):
    want = build_search(config(case)).run()
    got, ev, tuner = tuned_run(case)
    same_run(got, want)
    assert tuner.done and tuner.iterations == len(tuner.launches) * tuner.trials and tuner.failed is None
    grid = [grid_launch(*point) for point in paper_grid(ev.problem.n, ev.n_neighbors)]
    assert tuner.launches == list(dict.fromkeys([DEFAULT_LAUNCH, *grid]))  # each launch once
    assert ev.tuner is None and ev.launch == tuner.best()
    assert TuningCache.load().launches[tuner.key] == ev.launch


def test_a_later_run_takes_the_remembered_launch_without_tuning(tuning_on, monkeypatch):
    case = CASES[0]
    first, ev, _ = tuned_run(case)

    def no_tuning(*args, **kwargs):
        raise AssertionError("tuned again")

    monkeypatch.setattr(LaunchTuner, "__init__", no_tuning)
    search = build_search(config(case, tune=True))
    assert search.evaluator.tuner is None and search.evaluator.launch == ev.launch
    same_run(search.run(), first)


def test_a_corrupt_cache_file_is_survived_and_rewritten(tuning_on):
    cache_path().write_text("{broken")
    with pytest.warns(UserWarning, match="ignoring the GPU tuning cache"):
        _, ev, _ = tuned_run(CASES[0])
    assert TuningCache.load().launches[tuning_key(ev.device, ev.problem, ev.nbh, ev.spec)] == ev.launch


def test_a_launch_that_fails_to_launch_ends_the_grid_and_the_search_finishes(tuning_on, monkeypatch):
    """The fifth launch's selection raises CUDA's "too many resources requested for launch" as it is made."""
    import cupy

    case = CASES[0]
    want = build_search(config(case)).run()
    grid = [grid_launch(*point) for point in paper_grid(12, 66)]
    made = DeviceSelection.variant

    def variant(self, ev):
        if ev.launch == grid[4]:
            raise cupy.cuda.driver.CUDADriverError(701)  # CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
        return made(self, ev)

    monkeypatch.setattr(DeviceSelection, "variant", variant)
    got, ev, tuner = tuned_run(case)
    same_run(got, want)
    assert tuner.failed == grid[4] and tuner.launches == [DEFAULT_LAUNCH, *grid[:4]] and ev.launch in tuner.launches
    assert tuner.iterations == 5 * tuner.trials


def test_a_block_too_large_for_the_device_is_caught(tuning_on, monkeypatch):
    """A block of 2048 threads (beyond every device's 1024) fails for real; the grid ends before it."""
    monkeypatch.setattr(tuning, "PAPER_BLOCKS", (64, 128, 2048, 256))
    case = ("qap", "nug12", "swap", "tabu", 100)
    want = build_search(config(case)).run()
    got, ev, tuner = tuned_run(case)
    same_run(got, want)
    assert tuner.failed is not None and tuner.failed.block == 2048
    assert [launch.block for launch in tuner.launches] == [DEFAULT_LAUNCH.block, 64, 128]
    assert ev.launch in tuner.launches
