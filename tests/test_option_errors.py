"""Bad options through the library name the parameter as Python callers write it; the CLI names the flag."""

from __future__ import annotations

import pytest

import mols
from mols.backends import BackendSpec
from mols.errors import OptionError


@pytest.fixture(scope="module")
def flowshop():
    return mols.load_problem("flowshop", "020_05_01")


@pytest.mark.parametrize("options, parameter, message", [
    ({"algorithm": "tabu", "tenure": -1}, "tenure", "tenure must be at least 0, got -1"),
    ({"algorithm": "its", "run_length": 0}, "run_length", "run_length must be at least 1, got 0"),
    ({"algorithm": "tabu", "weights": (1.0, 2.0)}, "weights",
     "weights: expected 3 non-negative numbers, not all zero; got [1.0, 2.0]"),
    ({"restarts": -2}, "restarts", "restarts must be at least 0, got -2"),
    ({"seed": -1}, "seed", "seed must be at least 0, got -1"),
    ({"iterations": 0}, "iterations", "iterations must be at least 1, got 0"),
    ({"evaluations": 10}, "evaluations", "evaluations 10: fewer than one neighborhood evaluation (361 neighbors)"),
    ({"target": (1.0, 2.0)}, "target", ("target: the flowshop problem has 3 objectives; give 3 values, one per "
                                        "objective, got 2")),
    ({"objectives": ("makespan", "speed")}, "objectives", ("objectives: the flowshop problem has no objective "
                                                           "'speed'; choose among makespan, total_tardiness, n_tardy")),
    ({"backend": "cpu", "block": 64}, "block", "block and tune set the gpu backend's launches; this run is on the cpu"),
    ({"algorithm": "hc", "run_length": 5}, "algorithm", "algorithm hc does not take run_length (only its)"),
])
def test_solve_names_the_parameter(flowshop, options, parameter, message):
    with pytest.raises(OptionError) as err:
        mols.solve(flowshop, neighborhood="insertion", **{"backend": "cpu", "iterations": 5, **options})
    assert err.value.parameter == parameter and str(err.value) == message
    assert err.value.flagged().startswith("--" + parameter.replace("_", "-"))


def test_the_backend_spec_names_its_parameters():
    with pytest.raises(OptionError, match="^threads must be at least 1, got 0$"):
        BackendSpec("cpu", threads=0)
    with pytest.raises(OptionError, match="^block must be a positive multiple of the warp size") as err:
        BackendSpec("gpu", block=48)
    assert err.value.flagged().startswith("--block must be")
    with pytest.raises(OptionError, match="^backend: unknown backend 'tpu'"):
        BackendSpec("tpu")
