"""Pareto local search resumed from a snapshot taken at any step (through a checkpoint file) ends as the run left
whole: both variants, restarts, an initial population, on the CPU and wherever the GPU keeps a start's archive."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.pls.options import VARIANTS
from mols.backends import BackendSpec, prepare
from mols.runner import RunConfig, build_search
from mols.runner.entry import make_search, run_problem
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.monitor import Monitor
from tests.resume.cut import assert_resumed_equal


class EveryStep(Monitor):
    """The search's snapshot at every step: states[s] is the state after step s + 1."""

    def __init__(self):
        self.states = []

    def on_step(self, search) -> None:
        self.states.append(search.snapshot())


def population(n: int, size: int = 6) -> np.ndarray:
    """A small initial population of random permutations."""
    return np.stack([np.random.default_rng(s).permutation(n) for s in range(size)])


def cuts(seed: int, states: list) -> list[int]:
    """Which snapshots to resume from: after the first step, the last, one in the middle of a start (some members
    visited, some not) where there is one, and two more drawn with `seed`."""
    rng = np.random.default_rng(seed)
    within = [s for s, state in enumerate(states) if 0 < state["pls"]["start"]["visited"].sum()
              < len(state["pls"]["start"]["visited"])]
    chosen = {0, len(states) - 1, *rng.integers(0, len(states), size=2).tolist()}
    if within:
        chosen.add(within[int(rng.integers(len(within)))])
    return sorted(chosen)


def resumes_equal(tmp_path, seed: int, build, resume=None) -> tuple:
    """build() run whole with a snapshot at every step, which leaves it unchanged (a run without them ends the
    same), then resumed from some of the snapshots through a checkpoint file, by a search resume() makes (by
    default build()): each ends as the whole run. (the whole run, its snapshots)"""
    every = EveryStep()
    search = build()
    whole = search.run(monitors=[every])
    assert_resumed_equal(whole, build().run(), search.problem)
    path = tmp_path / "checkpoint.npz"
    for cut in cuts(seed, every.states):
        save_checkpoint(path, {}, every.states[cut])
        _, state = load_checkpoint(path)
        resumed = (resume or build)().run(resume=state)
        assert_resumed_equal(whole, resumed, search.problem)
    return whole, every.states


def on_gpu(spec: BackendSpec, initial=None, **options):
    """The search of RunConfig(**options) on the GPU as `spec` sets it up (where the start's archive lives)."""
    config = RunConfig(backend="gpu", **options)
    problem = run_problem(config)
    nbh = problem.neighborhood(config.neighborhood)
    return make_search(config, problem, nbh, prepare(problem, nbh, spec.resolved()), initial=initial)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("restarts", [None, 0, 2])
@pytest.mark.parametrize("instance, seed", [("020_05_01", 1), ("020_10_01", 2)])
def test_resumed_run_ends_as_the_whole_run(tmp_path, instance, seed, variant, restarts):
    config = RunConfig(instance, variant=variant, restarts=restarts, iterations=500, seed=seed, backend="cpu")
    whole, states = resumes_equal(tmp_path, seed, lambda: build_search(config))
    assert restarts is not None or whole.ended_by == "iterations"
    assert len(states) == whole.iterations  # a step per iteration on the host


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("restarts", [None, 0])
def test_resumed_run_from_an_initial_population(tmp_path, variant, restarts):
    """The population's start is not made again: the resumed run goes on with the start in progress, then
    random ones (a resumed run needs no population: the snapshots come after its start)."""
    config = RunConfig("020_05_01", variant=variant, restarts=restarts, iterations=300, seed=4, backend="cpu")
    X = population(20)
    whole, states = resumes_equal(tmp_path, 3, lambda: build_search(config, initial=X),
                                  lambda: build_search(config))
    assert all(state["pls"]["initial_used"] for state in states)
    assert whole.starts >= 1


def test_natural_end_is_resumed_as_a_natural_end(tmp_path):
    """PLS-1 (restarts 0) cut before its natural end ends there too, before the budget."""
    config = RunConfig("020_05_01", variant="dominating", restarts=0, iterations=2000, seed=5, backend="cpu")
    whole, _ = resumes_equal(tmp_path, 5, lambda: build_search(config))
    assert whole.ended_by == "natural end" and whole.iterations < 2000


class StopAfter(Monitor):
    """A stop (as mols.signals.StopSignals) requested at the `steps`-th step; the snapshot taken when the run ends,
    its start already handed to the run's archive (a last checkpoint written as an interrupted run ends)."""

    name = "SIGTERM"

    def __init__(self, steps: int):
        self.steps, self.requested, self.state = steps, False, None

    def on_step(self, search) -> None:
        self.steps -= 1
        self.requested = self.steps <= 0

    def on_end(self, search, result) -> None:
        self.state = search.snapshot()


@pytest.mark.parametrize("backend", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("part", [0.0, 0.4, 0.9])
def test_a_snapshot_taken_as_an_interrupted_run_ends_resumes_it(variant, part, backend):
    """The start's members reach the run's archive twice, as the run ends and when the resumed start ends: the
    same archive as once (those that the start drops later are dominated by one it keeps). Stopped after `part`
    of the whole run's steps (at least one)."""
    config = RunConfig("020_10_01", variant=variant, iterations=400, seed=7, backend=backend)
    search, every = build_search(config), EveryStep()
    whole = search.run(monitors=[every])
    stop = StopAfter(max(1, int(part * len(every.states))))
    assert build_search(config).run(stop=stop, monitors=[stop]).status == "interrupted"
    assert_resumed_equal(whole, build_search(config).run(resume=stop.state), search.problem)


def test_a_start_archive_holds_what_it_held(tmp_path):
    """No snapshot before the first start (the start archive would hold the warm-up's); HostStart.held() gives the
    members with their visited flags, and hold() takes them back, in order."""
    search = build_search(RunConfig("020_05_01", iterations=40, seed=2, backend="cpu"))
    assert search.snapshot() is None  # no start yet
    every = EveryStep()
    search.run(monitors=[every])
    start = next(state["pls"]["start"] for state in every.states if 0 < state["pls"]["start"]["visited"].sum() < 5)
    F, X, visited = start["F"], start["X"], start["visited"]
    assert len(F) > 5
    search.local.hold(F, X, visited)
    for got, want in zip(search.local.held(), (F, X, visited)):
        np.testing.assert_array_equal(got, want)
    assert search.local.unvisited == int((~visited).sum())


GPU_SPECS = {  # where the start's archive lives on the GPU
    "resident, iterations on the device": BackendSpec("gpu"),
    "resident, iterations from the host": BackendSpec("gpu", device_walk=False),
    "host archive": BackendSpec("gpu", archive="cpu"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("where", list(GPU_SPECS))
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("restarts", [None, 0])
def test_resumed_run_on_the_gpu_ends_as_the_whole_run(tmp_path, where, variant, restarts):
    from mols.algorithms.pls.local import HostStart
    from mols.archive.resident import ResidentArchive

    options = {"instance": "020_10_01", "variant": variant, "restarts": restarts, "iterations": 600, "seed": 6}
    build = lambda: on_gpu(GPU_SPECS[where], **options)
    local = build().local
    assert type(local) is (HostStart if where == "host archive" else ResidentArchive)
    assert (local.device_iterations is not None) == (where == "resident, iterations on the device")
    resumes_equal(tmp_path, 7, build)


@pytest.mark.gpu
@pytest.mark.parametrize("where", ["resident, iterations on the device", "host archive"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_resumed_run_on_the_gpu_from_an_initial_population(tmp_path, where, variant):
    options = {"instance": "020_05_01", "variant": variant, "iterations": 300, "seed": 4}
    resumes_equal(tmp_path, 8, lambda: on_gpu(GPU_SPECS[where], population(20), **options))


@pytest.mark.gpu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chunk_rows", [None, 333])
def test_resumed_run_with_the_mirrored_archive_ends_as_the_whole_run(tmp_path, variant, chunk_rows):
    """biTSP's 2-opt: a start's archive mirrored on the device, each neighborhood whole or in chunks."""
    from mols.algorithms.pls.local import MirroredStart

    options = {"instance": "kroAB100", "problem": "bitsp", "variant": variant, "iterations": 120, "seed": 5}
    build = lambda: on_gpu(BackendSpec("gpu", chunk_rows=chunk_rows), **options)
    search = build()
    assert type(search.local) is MirroredStart
    assert (search.evaluator.chunk < search.evaluator.n_neighbors) == (chunk_rows is not None)
    resumes_equal(tmp_path, 9, build)


@pytest.mark.gpu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("restarts", [None, 0])
def test_a_checkpoint_goes_on_on_the_other_backend(tmp_path, variant, restarts):
    """PLS's integer objectives agree bit for bit: a CPU checkpoint goes on on the GPU (its iterations on the
    device) and a GPU one on the CPU, each to the front of the run left whole."""
    options = {"instance": "020_10_01", "variant": variant, "restarts": restarts, "iterations": 800, "seed": 10}
    cpu = lambda: build_search(RunConfig(backend="cpu", **options))
    gpu = lambda: on_gpu(BackendSpec("gpu"), **options)
    whole, _ = resumes_equal(tmp_path, 11, cpu, gpu)
    on_device, _ = resumes_equal(tmp_path, 12, gpu, cpu)
    assert_resumed_equal(whole, on_device, cpu().problem)
