"""The host side of walks side by side (algorithms/tabu/together.py's walk_together, SideBySide; archive/lanes.py;
Neighborhood.paths) on the CPU: a stand-in walker gives the batches that the device's lanes give (each walk's
host_walk, cut into batches of 7 steps), so a batch of searches taken together must equal each search run alone,
and the lanes' archives must equal archives offered the same batches one by one."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.tabu import search as tabu_search
from mols.algorithms.tabu import together, walks
from mols.algorithms.tabu.steps import LaneBatch
from mols.algorithms.tabu.together import lane_new_bests
from mols.algorithms.tabu.walks import host_walk, new_bests
from mols.archive import Archive
from mols.archive.lanes import LaneArchives
from mols.problems import load_problem
from mols.runner import RunConfig
from tests.search.test_batch_search import batch_equals_alone

STEPS = 7  # a batch: short, so that walks end in different batches


class HostLanes:
    """Walks side by side as the device batches them, each walked on the host."""

    def __init__(self, ev):
        self.ev = ev

    def batches(self, walks, tenure):  # one tenure for all, or one per walk, as the device walker takes them
        tenures = np.broadcast_to(np.asarray(tenure, dtype=np.int64), (len(walks),))
        trails = [list(host_walk(self.ev, self.ev.nbh, *w[:4], int(t), w.keys)) for w, t in zip(walks, tenures)]
        longest = max(w.steps for w in walks)
        for first in range(0, longest, STEPS):
            m = min(STEPS, longest - first)
            taken = np.clip(np.array([w.steps for w in walks]) - first, 0, m)
            parts = [np.zeros((len(walks), m, *trails[0][0][p].shape[1:]), trails[0][0][p].dtype) for p in range(3)]
            for b, trail in enumerate(trails):
                for t, step in enumerate(trail[first:first + taken[b]]):
                    for p in range(3):
                        parts[p][b, t] = step[p][0]
            yield LaneBatch(taken, *parts)


@pytest.fixture
def host_lanes(monkeypatch):
    for module in (walks, together, tabu_search):  # wherever a walker of lanes is asked for
        monkeypatch.setattr(module, "lane_walker", lambda ev, lanes, rots=None: HostLanes(ev) if lanes > 1 else None)


@pytest.mark.parametrize("config", [
    RunConfig("020_05_01", algorithm="tabu", backend="cpu", iterations=60, seed=5, weights=(0.3, 0.3, 0.4)),
    RunConfig("020_05_01", algorithm="tabu", backend="cpu", iterations=90, seed=2, partitions=2),
    RunConfig("tai12a", problem="qap", algorithm="its", backend="cpu", iterations=80, run_length=15),
    RunConfig("KC10-2fl-1uni", problem="mqap", algorithm="tabu", backend="cpu", iterations=60, partitions=4),
])
def test_walks_taken_together_give_each_search_its_run_alone(config, host_lanes):
    searches = batch_equals_alone(config, 3)
    assert all(search.walk == "device" for search in searches)  # taken together, not walked one after another


def test_lanes_keep_what_archives_offered_the_same_batches_keep():
    rng = np.random.default_rng(4)
    lanes_of, archives = [], []
    for b in range(5):
        alone, lane = Archive(2, 3, np.int64), Archive(2, 3, np.int64)
        start = rng.integers(0, 6, size=(b, 2))  # some lanes start with members, some empty
        for a in (alone, lane):
            a.add(start, np.repeat(np.arange(b)[:, None], 3, axis=1))
        archives.append(alone)
        lanes_of.append(lane)
    lanes = LaneArchives(lanes_of)
    for _ in range(4):
        F = rng.integers(0, 6, size=(5, 9, 2))  # small values: equal vectors and dominance both happen
        X = rng.integers(0, 100, size=(5, 9, 3)).astype(np.int32)
        offered = rng.random((5, 9)) < 0.8
        lanes.offer(F, X, offered)
        for b, a in enumerate(archives):
            a.add(F[b][offered[b]], X[b][offered[b]])
        lanes.flush(1)  # a flush in the middle changes nothing that follows
    lanes.flush_all()
    for alone, lane in zip(archives, lanes_of):
        np.testing.assert_array_equal(lane.F, alone.F)
        np.testing.assert_array_equal(lane.X, alone.X)


def test_lane_new_bests_are_each_walks_new_bests():
    rng = np.random.default_rng(1)
    scores, taken = rng.random((6, 8)), np.array([8, 0, 3, 5, 8, 1])
    best = rng.random(6)
    got_best = best.copy()
    new, last = lane_new_bests(scores, taken, got_best)
    for b in range(6):
        want, t = new_bests(scores[b, :taken[b]], best[b])
        np.testing.assert_array_equal(new[b, :taken[b]], want)
        assert not new[b, taken[b]:].any() and last[b] == t
        assert got_best[b] == (scores[b, t] if t >= 0 else best[b])


@pytest.mark.parametrize("problem, instance, nbh", [
    ("flowshop", "020_05_01", "insertion"), ("flowshop", "020_05_01", "swap"), ("qap", "tai12a", "swap"),
    ("tsp", "kroA100", "2opt"),
])
def test_paths_of_many_walks_are_each_walks_path(problem, instance, nbh):
    pb = load_problem(problem, instance)
    hood = pb.neighborhood(nbh)
    rng = np.random.default_rng(0)
    starts = np.stack([pb.random_solution(rng) for _ in range(4)])
    ids = rng.integers(0, hood.n_neighbors(pb.n), size=(4, 6))
    taken = np.array([6, 0, 2, 5])
    got = hood.paths(starts, ids, taken)
    for b in range(4):
        np.testing.assert_array_equal(got[b, :taken[b]], hood.path(starts[b], ids[b, :taken[b]])[:taken[b]])
