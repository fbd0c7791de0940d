"""Tabu search (one or several weight vectors), ITS, hill climbing and ILS resumed from a checkpoint taken at any step
end as the run left whole and pass through the same states on the way; snapshots taken at every step change
nothing. On the CPU here, on the GPU (device walks, walks side by side, the host walk) and across the two in
test_tabu_gpu.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mols.algorithms.tabu import together, walks
from mols.algorithms.tabu.steps import LaneBatch
from mols.algorithms.tabu.walks import HostWalk
from mols.backends import prepare
from mols.neighborhoods.crowns import crowns
from mols.runner import RunConfig, build_search, make_search, run_problem
from mols.search.checkpoint import load_checkpoint, save_checkpoint
from mols.search.monitor import Monitor
from tests.resume.cut import assert_resumed_equal

FLOWSHOP = {"instance": "020_05_01"}
QAP = {"instance": "tai12a", "problem": "qap"}
CASES = {  # small runs of every kind of round, walk and climb
    "tabu-lattice": {**FLOWSHOP, "algorithm": "tabu", "iterations": 300, "partitions": 2},
    "tabu-one-vector": {**FLOWSHOP, "algorithm": "tabu", "iterations": 300, "weights": (0.5, 0.3, 0.2)},
    "tabu-qap": {**QAP, "algorithm": "tabu", "iterations": 300},
    "tabu-qap-3exchange": {**QAP, "algorithm": "tabu", "iterations": 200, "neighborhood": "3exchange"},
    "tabu-mqap": {"instance": "KC10-2fl-1uni", "problem": "mqap", "algorithm": "tabu", "iterations": 200,
                  "partitions": 3, "tenure": 4},
    "tabu-sampled": {"instance": "2", "problem": "weierstrass", "algorithm": "tabu", "iterations": 60},
    "its-qap": {**QAP, "algorithm": "its", "iterations": 400, "run_length": 50},
    "its-flowshop": {**FLOWSHOP, "algorithm": "its", "iterations": 300, "run_length": 40},
    "hc-qap": {**QAP, "algorithm": "hc", "iterations": 400},
    "hc-flowshop": {**FLOWSHOP, "algorithm": "hc", "iterations": 300},
    "ils-qap": {**QAP, "algorithm": "ils", "iterations": 400},
    "ils-flowshop": {**FLOWSHOP, "algorithm": "ils", "iterations": 300, "strength": 3},
    "ils-sampled": {"instance": "2", "problem": "weierstrass", "algorithm": "ils", "iterations": 60},
}
SAMPLED = 64  # crowns of the Weierstrass function's neighborhood (draw keys), few: its cases take seconds


class Snapshots(Monitor):
    """The search's snapshot after every step, by the iterations counted then."""

    def __init__(self):
        self.states = {}

    def on_step(self, search) -> None:
        state = search.snapshot()
        assert state is not None  # a tabu search, a climb: every step can be checkpointed
        self.states[search.iterations] = state


def search_of(config: RunConfig, spec=None):
    """The search of `config`, on its backend or on the evaluator of `spec` (a BackendSpec); the Weierstrass
    function's with SAMPLED crowns."""
    problem = run_problem(config)
    nbh = crowns(SAMPLED) if config.problem == "weierstrass" else problem.neighborhood(config.neighborhood)
    return make_search(config, problem, nbh, prepare(problem, nbh, spec or config.spec))


def cuts(steps: list[int], seed: int) -> list[int]:
    """Steps (their iterations) to cut at: the first, two at random, the last but one and the last."""
    rng = np.random.default_rng(seed)
    middle = rng.choice(steps[1:-2], size=min(2, max(0, len(steps) - 3)), replace=False).tolist()
    return sorted({steps[0], *middle, *steps[-2:]})


def assert_same_states(got: dict, want: dict, skip=("profile",), path="") -> None:
    """Two snapshots alike (arrays of the same dtype and values), but for the keys in `skip`."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (path, set(got) ^ set(want))
        for key, value in want.items():
            if key not in skip:
                assert_same_states(got[key], value, skip, f"{path}/{key}")
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), path
        for i, (a, b) in enumerate(zip(got, want)):
            assert_same_states(a, b, skip, f"{path}/{i}")
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype, (path, got, want)
        np.testing.assert_array_equal(got, want, path)
    else:
        assert got == want and type(got) is type(want), (path, got, want)


def resume_at(tmp_path, config: RunConfig, state: dict, spec=None, monitors=()):
    """A fresh search of `config` resumed from `state` through a checkpoint file."""
    path = tmp_path / "checkpoint.npz"
    save_checkpoint(path, {}, state)
    _, loaded = load_checkpoint(path)
    return search_of(config, spec).run(resume=loaded, monitors=monitors)


def check_cuts(tmp_path, config: RunConfig, seed: int, spec=None, resume_spec=None, same_states=True):
    """The run left whole, snapshotted at every step, then resumed from the states of cuts(); each resumed run ends
    as the whole one (and, with `same_states`, passes through its states)."""
    recorded = Snapshots()
    whole_search = search_of(config, spec)
    whole = whole_search.run(monitors=[recorded])
    steps = sorted(recorded.states)
    assert len(steps) >= 3, steps
    for cut in cuts(steps, seed):
        again = Snapshots()
        resumed = resume_at(tmp_path, config, recorded.states[cut], resume_spec or spec, [again])
        assert_resumed_equal(whole, resumed, whole_search.problem)
        assert sorted(again.states) == [s for s in steps if s > cut] or not same_states
        for iterations in sorted(again.states) if same_states else ():
            assert_same_states(again.states[iterations], recorded.states[iterations])
    return whole, recorded


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_run_resumed_at_any_step_ends_as_the_run_left_whole(tmp_path, case, seed):
    check_cuts(tmp_path, RunConfig(**CASES[case], backend="cpu", seed=seed), seed)


@pytest.mark.parametrize("case", sorted(CASES))
def test_snapshots_at_every_step_leave_the_run_unchanged(case):
    config = RunConfig(**CASES[case], backend="cpu", seed=7)
    plain, watched = search_of(config).run(), search_of(config).run(monitors=[Snapshots()])
    assert_resumed_equal(plain, watched, search_of(config).problem)
    np.testing.assert_array_equal(plain.archive.X, watched.archive.X)


def test_a_run_resumed_twice_ends_as_the_run_left_whole(tmp_path):
    """A walk resumed with a tabu memory, checkpointed again mid-way, keeps the memory it started with."""
    config = RunConfig(**CASES["tabu-qap"], backend="cpu", seed=3, tenure=40)
    whole, recorded = check_cuts(tmp_path, config, 0)
    first = Snapshots()
    resume_at(tmp_path, config, recorded.states[20], monitors=[first])
    assert first.states[30]["tabu"]["runs"][0]["tabu"].shape[1] > 10  # forbids from before the first resumption
    final = resume_at(tmp_path, config, first.states[30])
    assert_resumed_equal(whole, final, build_search(config).problem)


@pytest.mark.parametrize("case", ["tabu-lattice", "its-flowshop"])
def test_a_run_restored_at_its_last_step_and_ended_at_once_has_the_whole_archive(case):
    """The checkpoint of the step that spent a budget ends the resumed run before its loop runs (search/loop.py):
    the runs' archives not merged yet still reach the run's."""
    config = RunConfig(**CASES[case], backend="cpu", seed=2)
    recorded = Snapshots()
    whole = search_of(config).run(monitors=[recorded])
    search = search_of(config)
    search.warm_up()
    search.restore(recorded.states[max(recorded.states)])
    assert_resumed_equal(whole, search.result("completed", ended_by=whole.ended_by), search.problem)


def test_the_tabu_memory_kept_is_the_walks_memory(tmp_path):
    """A checkpoint's tabu memory: each move's inverse of the last `tenure` steps, tabu for the steps left of its
    tenure, as the selection holds it."""
    config = RunConfig(**CASES["tabu-qap"], backend="cpu", seed=1, tenure=5)
    recorded = Snapshots()
    search = build_search(config)
    search.run(monitors=[recorded])
    state = recorded.states[50]["tabu"]["runs"][0]
    ids, left = state["tabu"]
    assert state["steps"] == 250 and sorted(left.tolist()) == [1, 2, 3, 4, 5] and np.all(np.diff(ids) > 0)
    X = [recorded.states[i]["tabu"]["runs"][0]["x"] for i in range(44, 51)]
    nbh, n = search.nbh, search.problem.n
    moves = [next(m for m in range(nbh.size(n)) if np.array_equal(nbh.apply(a, m), b)) for a, b in itertools.pairwise(X)]
    expected = {nbh.inverse(m, n): t + 1 for t, m in enumerate(moves[1:])}
    assert dict(zip(ids.tolist(), left.tolist())) == expected


class HostLanes:
    """Walks side by side as the device batches them (8 steps), each a HostWalk on an evaluator of its own, so that
    the position of each is known: SideBySide's checkpoint, here on the CPU."""

    def __init__(self, ev, lanes: int):
        self.ev = ev
        self.evs = [prepare(ev.problem, ev.nbh, "cpu") for _ in range(lanes)]

    def batches(self, lanes, tenure):  # one tenure for all, or one per walk, as the device walker takes them
        tenures = np.broadcast_to(np.asarray(tenure, dtype=np.int64), (len(lanes),))
        self.walks = [HostWalk(ev, ev.nbh, lane, int(t)) for ev, lane, t in zip(self.evs, lanes, tenures)]
        steps = [iter(walk) for walk in self.walks]
        for first in range(0, max(lane.steps for lane in lanes), 8):
            taken = np.clip(np.array([lane.steps for lane in lanes]) - first, 0, 8)
            trails = [[next(walk) for _ in range(t)] for walk, t in zip(steps, taken)]
            m = int(taken.max())
            X, scores, F = (np.zeros((len(lanes), m, *part.shape[1:]), part.dtype)
                            for part in next(trail for trail in trails if trail)[0])
            for b, trail in enumerate(trails):
                for t, (x, score, f) in enumerate(trail):
                    X[b, t], scores[b, t], F[b, t] = x[0], score[0], f[0]
            yield LaneBatch(taken, X, scores, F)

    def position(self, b: int):
        return self.walks[b].position()


@pytest.mark.parametrize("case", ["tabu-lattice", "tabu-mqap"])
def test_walks_side_by_side_resume_where_they_stand(tmp_path, monkeypatch, case):
    """A checkpoint of runs side by side (their lanes' archives and bests brought up to date, each walk's position)
    resumes side by side to the end of the runs walked one after another."""
    config = RunConfig(**CASES[case], backend="cpu", seed=4)
    alone = build_search(config).run()
    made = {}

    def lane_walker(ev, lanes, rots=None):  # the real one's arguments (Ro-TS's memory: not these tests')
        return made.setdefault((id(ev), lanes), HostLanes(ev, lanes)) if lanes > 1 else None

    for module in (walks, together):
        monkeypatch.setattr(module, "lane_walker", lane_walker)
    whole, _ = check_cuts(tmp_path, config, 5)
    assert whole.walk == "device"
    assert_resumed_equal(alone, whole, build_search(config).problem)
