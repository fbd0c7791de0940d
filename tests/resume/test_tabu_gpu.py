"""On the device: tabu search, ITS, hill climbing and ILS resumed at any step end as the run left whole and pass
through its states (device walks a batch ahead of the host, walks side by side, the host walk on the device's
selection, QAP's whole steps that keep their deltas); a checkpoint taken on one backend resumes on the other."""

from __future__ import annotations

import pytest

from mols.backends.spec import BackendSpec
from mols.runner import RunConfig
from tests.resume.cut import assert_resumed_equal
from tests.resume.test_tabu import CASES, Snapshots, check_cuts, search_of

pytestmark = pytest.mark.gpu

SPECS = {  # the walks' kinds: batches of steps, side by side or one after another, or from the host
    "device": BackendSpec("gpu"),
    "batch16": BackendSpec("gpu", walk_batch=16),
    "one-lane": BackendSpec("gpu", lanes=False, walk_batch=16),
    "host-walk": BackendSpec("gpu", device_walk=False),
}
TABU = sorted(case for case in CASES if case.split("-")[0] in ("tabu", "its"))
CLIMBS = sorted(case for case in CASES if case.split("-")[0] in ("hc", "ils"))
TAILLARD = {  # n >= 40: qap_taillard_step keeps the moves' deltas from step to step (walk memory, `last`)
    "tabu-taillard": {"instance": "tai50a", "problem": "qap", "algorithm": "tabu", "iterations": 300},
    "its-taillard": {"instance": "tai50a", "problem": "qap", "algorithm": "its", "iterations": 300, "run_length": 70},
}
INTEGER = [case for case in TABU + CLIMBS if "sampled" not in case]  # the same bits on both backends


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("spec", sorted(SPECS))
@pytest.mark.parametrize("case", TABU)
def test_a_tabu_run_resumed_at_any_step_ends_as_the_run_left_whole(tmp_path, case, spec, seed):
    options = {**CASES[case], "iterations": max(200, CASES[case]["iterations"])}  # batches of 64 steps: a few
    whole, _ = check_cuts(tmp_path, RunConfig(**options, backend="gpu", seed=seed), seed, SPECS[spec])
    assert whole.walk == ("host" if spec == "host-walk" else "device")


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("case", CLIMBS)
def test_a_climb_resumed_at_any_step_ends_as_the_run_left_whole(tmp_path, case, seed):
    check_cuts(tmp_path, RunConfig(**CASES[case], backend="gpu", seed=seed), seed)


@pytest.mark.parametrize("spec", ["device", "batch16"])
@pytest.mark.parametrize("case", sorted(TAILLARD))
def test_whole_steps_resumed_recompute_their_deltas(tmp_path, case, spec):
    check_cuts(tmp_path, RunConfig(**TAILLARD[case], backend="gpu", seed=2), 2, SPECS[spec])


@pytest.mark.parametrize("spec", sorted(SPECS))
@pytest.mark.parametrize("case", TABU + CLIMBS)
def test_snapshots_at_every_step_leave_a_gpu_run_unchanged(case, spec):
    config = RunConfig(**CASES[case], backend="gpu", seed=7)
    plain = search_of(config, SPECS[spec]).run()
    watched = search_of(config, SPECS[spec]).run(monitors=[Snapshots()])
    assert_resumed_equal(plain, watched, search_of(config).problem)


@pytest.mark.parametrize("to", ["cpu", "gpu"])
@pytest.mark.parametrize("case", INTEGER)
def test_a_checkpoint_resumes_on_the_other_backend(tmp_path, case, to):
    """Taken on the CPU, resumed on the GPU (device walks, side by side where they can), and the other way: the
    state is the same on both (the walks' positions, not the device's buffers)."""
    origin = "gpu" if to == "cpu" else "cpu"
    config = RunConfig(**CASES[case], backend=origin, seed=3)
    check_cuts(tmp_path, config, 3, BackendSpec(origin), BackendSpec(to), same_states=False)
