"""The round kernel's Numba twin (qap/rots_round.py) and, on the device, the kernel itself (qap/rots_round.cu): the
walks' rounds equal RotsWalk's step for step (the kernel also in C++: test_qap_rots_round_source.py)."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.elite.device import device_rounds
from mols.backends import prepare
from tests.problems.rots_cases import CASES, EVERY, instance, on_the_host, walks


def rounds_equal_the_host_walks(rng, case: str, rounds_of) -> None:
    """The rounds that rounds_of(problem) takes equal RotsWalk's, for walks of 60, 0, 35 and 80 steps."""
    problem = instance(case, rng)
    given = walks(problem, rng, [60, 0, 35, 80])
    host = on_the_host(problem, given)
    assert host["best_costs"][0] < given["best_costs"][0]  # a new best: best_perms is checked
    out = rounds_of(problem).run(given["perms"], given["lefts"], given["tenures"], EVERY, given["lengths"],
                                 given["thresholds"], given["best_perms"], given["best_costs"])
    names = {"perms": "x", "costs": "cost", "lefts": "left", "thresholds": "threshold", "best_perms": "best_x",
             "best_costs": "best"}
    for name, key in names.items():
        np.testing.assert_array_equal(out[key], host[name], err_msg=name)


@pytest.mark.parametrize("case", CASES)
def test_rounds_on_cpu_cores_are_the_cpu_walks(rng, case):
    rounds_equal_the_host_walks(rng, case, lambda problem: problem.kernels.rots_round(problem.neighborhood("swap"),
                                                                                       32).cpu)


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES)  # asymmetric and tie-heavy instances too, which no bundled one is
def test_rounds_on_the_device_are_the_cpu_walks(rng, case):
    rounds_equal_the_host_walks(rng, case, lambda problem: device_rounds(prepare(problem, problem.neighborhood("swap"),
                                                                                 "gpu")))
