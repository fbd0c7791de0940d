"""The round kernel's Numba twin (qap/rots_round.py): the walks' rounds on CPU cores equal RotsWalk's step for step,
as the device's kernel must (test_qap_rots_round_source.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.problems.rots_cases import CASES, EVERY, instance, on_the_host, walks


@pytest.mark.parametrize("case", CASES)
def test_rounds_on_cpu_cores_are_the_cpu_walks(rng, case):
    problem = instance(case, rng)
    given = walks(problem, rng, [60, 0, 35, 80])
    host = on_the_host(problem, given)
    assert host["best_costs"][0] < given["best_costs"][0]  # a new best: best_perms is checked
    rounds = problem.kernels.rots_round(problem.neighborhood("swap"), 32).cpu
    out = rounds.run(given["perms"], given["lefts"], given["tenures"], EVERY, given["lengths"], given["thresholds"],
                     given["best_perms"], given["best_costs"])
    names = {"perms": "x", "costs": "cost", "lefts": "left", "thresholds": "threshold", "best_perms": "best_x",
             "best_costs": "best"}
    for name, key in names.items():
        np.testing.assert_array_equal(out[key], host[name], err_msg=name)
