"""Where walks side by side stand (algorithms/tabu/positions.py: what a device walk's checkpoint keeps, its device
buffers being a batch ahead): the moves the host reads batch by batch give, for each walk, the solution, steps
and tabu memory that the host walk's selection holds at the same step, fresh or resumed with a memory."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu.positions import LanePositions
from mols.algorithms.tabu.steps import WalkLane
from mols.algorithms.tabu.walks import HostWalk
from mols.backends import prepare
from mols.problems import load_problem


def move_between(nbh, a: np.ndarray, b: np.ndarray) -> int:
    """The swap that takes a to b (one on the QAP)."""
    return next(m for m in range(nbh.size(len(a))) if np.array_equal(nbh.apply(a, m), b))


@pytest.mark.parametrize("batch", [1, 3, 7, 16])
@pytest.mark.parametrize("tenure", [0, 1, 5, 9])
def test_lane_positions_are_the_host_walks_positions(batch, tenure):
    problem = load_problem("qap", "tai12a")
    nbh = problem.neighborhood("swap")
    rng = np.random.default_rng(batch * 10 + tenure)
    c = np.ones(1)
    lanes = []
    for steps in (30, 11, 0, 19, 23):
        x = problem.random_solution(rng)
        tabu = None
        if steps == 23:  # a walk resumed with a memory (tabu for at most `tenure` steps more, as a walk leaves it)
            tabu = np.array([[0, 3, 7, 20, 41, 45, 50, 52, 60][:tenure], np.arange(1, tenure + 1)], dtype=np.int64)
        lanes.append(WalkLane(x, c, float(problem.evaluate_one(x)[0]), steps, None, tabu))
    host = [HostWalk(prepare(problem, nbh, "cpu"), nbh, lane, tenure) for lane in lanes]
    steps = [iter(walk) for walk in host]
    x = np.stack([lane.x for lane in lanes])
    kept = LanePositions(lanes, x, tenure, nbh)
    for first in range(0, 30, batch):
        taken = np.clip(np.array([lane.steps for lane in lanes]) - first, 0, batch)
        ids = np.full((len(lanes), batch), -1, dtype=np.int64)
        for b, walk in enumerate(steps):
            for t in range(taken[b]):
                before = host[b].x
                after = next(walk)[0][0]
                ids[b, t] = move_between(nbh, before, after)
                x[b] = after
        kept.took(first, ids, taken)
        for b, walk in enumerate(host):
            got, want = kept.position(b), walk.position()
            assert got.walked == want.walked
            np.testing.assert_array_equal(got.x, want.x)
            np.testing.assert_array_equal(got.tabu, want.tabu)
