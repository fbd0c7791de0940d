"""ILS-3opt (-p tsp -a ils --strategy S) resumed from its state at any step, through a checkpoint file, ends as the
run left whole (front.csv's bytes, every solution's length, iterations, ended_by): each strategy, with and without
merged rounds, on the CPU and (gpu marker) on the GPU, and from one backend's checkpoint on the other."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.ils3opt.search import config_result, config_run, make_run
from mols.errors import MolsError
from mols.problems.tsp import load_tsp
from mols.runner import RunConfig
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.monitor import Monitor
from tests.resume.cut import assert_resumed_equal

INSTANCE = "kroA200"  # merged rounds take 200 cities or more
SAMPLES = 300  # rkbi's per step in the cross-backend runs: enough to descend, few enough for quick tests
CPU_RUNS = [  # (options, seed): steps of 1, 2, 4, ... iterations of each solution, or of 32 in merged rounds
    *[({"strategy": "cpu", "population": 6, "iterations": 6 * 40}, seed) for seed in range(3)],
    ({"strategy": "cpu-rkbi", "population": 3, "iterations": 3 * 12}, 1),
    ({"strategy": "cpu", "population": 8, "iterations": 8 * 200, "merge": 4}, 2),  # two islands
    ({"strategy": "cpu", "population": 4, "iterations": 4 * 100, "merge": 4, "threads": 1}, 0),
    ({"strategy": "cpu", "population": 4, "iterations": 4 * 40, "lists": "quadrant"}, 1),  # the lists made again
]
GPU_RUNS = [
    *[({"strategy": strategy, "population": 6, "iterations": 6 * 40}, 1)
      for strategy in ("fi-thread", "fi-block", "fi-block-shared")],
    ({"strategy": "rkbi", "population": 3, "iterations": 3 * 12}, 1),
    *[({"strategy": strategy, "population": 8, "iterations": 8 * 200, "merge": 4}, 2)
      for strategy in ("fi-thread", "fi-block", "fi-block-shared")],
]


class EveryStep(Monitor):
    """The run's snapshot at each step (None where it takes none)."""

    def __init__(self):
        self.states = []

    def on_step(self, search) -> None:
        self.states.append(search.snapshot())


def through_file(tmp_path, state: dict) -> dict:
    path = tmp_path / "checkpoint.npz"
    save_checkpoint(path, {}, state)
    return load_checkpoint(path)[1]


def ils_config(options: dict, seed: int, **more) -> RunConfig:
    return RunConfig(instance=INSTANCE, problem="tsp", algorithm="ils", seed=seed, **options, **more)


def assert_same(resumed, whole, problem) -> None:
    assert_resumed_equal(whole, resumed, problem)
    assert resumed.details["lengths"] == whole.details["lengths"]


def resumes_from_every_step(tmp_path, config: RunConfig) -> list:
    """Runs `config` whole (its snapshots taken at every step leave it as a run without them), then resumed from
    each step's state through a checkpoint file; each ends as the whole run. The whole run's states."""
    plain, _ = config_result(config)
    every, run = EveryStep(), config_run(config)
    whole, _ = config_result(config, monitors=[every], run=run)
    assert_same(whole, plain, run.problem)
    assert len(every.states) >= 3, every.states
    for state in every.states:
        if state is not None:
            resumed, _ = config_result(config, resume=through_file(tmp_path, state))
            assert_same(resumed, whole, run.problem)
    return every.states


@pytest.mark.parametrize("options, seed", CPU_RUNS)
def test_cpu_run_resumes_exactly_from_every_step(tmp_path, options, seed):
    states = resumes_from_every_step(tmp_path, ils_config(options, seed))
    assert all(state is not None for state in states)
    assert states[0]["iterations"] == 0  # the first descents only


def target_config(strategy: str) -> RunConfig:
    """A run whose target is the best length its population holds after a middle step (it ends there by it)."""
    options = {"strategy": strategy, "population": 6, "iterations": 6 * 60}
    every = EveryStep()
    config_result(ils_config(options, 4), monitors=[every])
    best = [int(state["population"]["lengths"].min()) for state in every.states]
    step = next(k for k in range(2, len(best)) if best[k] < best[k - 1])
    return ils_config(options, 4, target=best[step])


def test_cpu_run_ended_by_its_target_resumes_exactly(tmp_path):
    """The step that reaches the target takes no snapshot (the run ends there); every earlier one resumes to it."""
    states = resumes_from_every_step(tmp_path, target_config("cpu"))
    assert states[-1] is None and all(state is not None for state in states[:-1])
    assert config_result(target_config("cpu"))[0].ended_by == "target"


def test_a_checkpoint_of_another_population_is_refused():
    state = EveryStep()
    config_result(ils_config({"strategy": "cpu", "population": 2, "iterations": 4}, 0), monitors=[state])
    with pytest.raises(MolsError, match="2 tours of 200 cities"):
        config_result(ils_config({"strategy": "cpu", "population": 4, "iterations": 8}, 0), resume=state.states[0])


@pytest.mark.gpu
@pytest.mark.parametrize("options, seed", GPU_RUNS)
def test_gpu_run_resumes_exactly_from_every_step(tmp_path, options, seed):
    resumes_from_every_step(tmp_path, ils_config(options, seed))


@pytest.mark.gpu
def test_gpu_run_ended_by_its_target_resumes_exactly(tmp_path):
    states = resumes_from_every_step(tmp_path, target_config("fi-block"))
    assert states[-1] is None


@pytest.mark.gpu
@pytest.mark.parametrize("cpu, gpu, merge", [("cpu", "fi-block", 0), ("cpu", "fi-thread", 4),
                                             ("cpu", "fi-block-shared", 4), ("cpu-rkbi", "rkbi", 0)])
def test_a_checkpoint_resumes_on_the_other_backend(tmp_path, cpu, gpu, merge):
    """The population's state is the same on both backends, and so are their tours: a CPU run's checkpoint resumed
    by a GPU strategy ends as the CPU run, and the other way round."""
    problem, P = load_tsp(INSTANCE), 8 if merge else 4
    iterations = P * (200 if merge else 12 if cpu == "cpu-rkbi" else 40)

    def run(strategy, monitors=(), resume=None):
        return make_run(problem, strategy, P, iterations, seed=5, samples=SAMPLES, merge=merge).run(
            monitors=monitors, resume=resume)

    for one, other in ((cpu, gpu), (gpu, cpu)):
        every = EveryStep()
        whole = run(one, [every])
        for state in every.states:
            resumed = run(other, resume=through_file(tmp_path, state))
            assert (resumed.iterations, resumed.ended_by) == (whole.iterations, whole.ended_by)
            np.testing.assert_array_equal(resumed.lengths, whole.lengths)
            np.testing.assert_array_equal(resumed.tour, whole.tour)
