"""The GPU study variants (README "GPU techniques") change the time only: every generation, selection, memory
variant and launch gives the default's objective vectors, choices and search trajectories; an impossible
launch is caught and replaced, a cache file's bad launch survived (the in-search tuner: test_tuner_gpu.py). On the
device only."""

from __future__ import annotations

import dataclasses
from contextlib import nullcontext

import numpy as np
import pytest

from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.walks import host_walk, walks_on_device
from mols.backends import BackendSpec, prepare
from mols.backends.launch import DEFAULT_LAUNCH, Launch
from mols.backends.tuning import TuningCache, tuning_key
from mols.errors import MolsError
from mols.problems import load_problem
from mols.problems.qap.instance import QapInstance
from mols.problems.qap.model import Qap
from mols.runner import RunConfig, build_search
from tests.conftest import device_walks_agree, trail

pytestmark = pytest.mark.gpu
CASES = [("ppp", "73-73", "hamming2"), ("tsp", "eil101", "swap"), ("qap", "nug12", "swap"),
         ("qap", "asymmetric", "swap"), ("mqap", "KC20-2fl-1uni", "swap"), ("flowshop", "020_10_01", "insertion")]
VARIANTS = [{"generation": "host"}, {"selection": "copy"}, {"generation": "host", "selection": "copy"},
            {"memory": "plain"}, {"memory": "readonly"}, {"memory": "shared"}, {"block": 96}, {"block": 1024}]


@pytest.fixture
def tuning(tmp_path, monkeypatch):
    """Tuning on (conftest turns it off), into a cache of this test's."""
    monkeypatch.delenv("MOLS_TUNE", raising=False)
    monkeypatch.setenv("MOLS_CACHE_DIR", str(tmp_path))


def loaded(name: str, instance: str):
    """The bundled instance, or ("qap", "asymmetric"): random asymmetric flows and distances (QAP_STAGE_FLOWS
    stages AT too)."""
    if instance != "asymmetric":
        return load_problem(name, instance)
    rng = np.random.default_rng(12)
    return Qap(QapInstance("asymmetric", rng.integers(0, 50, (1, 13, 13)), rng.integers(0, 50, (13, 13))))


def made(case: tuple[str, str, str], **options):
    """(problem, neighborhood, evaluator of the options); skipped where the problem has no such variant."""
    problem = loaded(case[0], case[1])
    assert problem.name != "qap" or problem.symmetric == (case[1] != "asymmetric")
    nbh = problem.neighborhood(case[2])
    try:
        return problem, nbh, prepare(problem, nbh, BackendSpec("gpu", **options))
    except MolsError as err:
        pytest.skip(str(err))


def cases_and_variants():
    """Every case under every variant."""
    return [(case, options) for case in CASES for options in VARIANTS]


def ids(pair) -> str:
    case, options = pair
    return f"{case[0]}-{case[1]}-" + ",".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("case, options", cases_and_variants(), ids=list(map(ids, cases_and_variants())))
def test_every_variant_evaluates_and_chooses_as_the_default(rng, tuning, case, options):
    problem, nbh, ev = made(case, **options)
    default = prepare(problem, nbh, BackendSpec("gpu", tune=False))
    c = rng.random(problem.n_obj)
    for step in range(3):
        x = problem.random_solution(rng)
        np.testing.assert_array_equal(ev.evaluate(x), default.evaluate(x).copy())
        got, want = selection_for(ev)(x, c, step, -np.inf), selection_for(default)(x, c, step, -np.inf)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])


@pytest.mark.parametrize("case, options", cases_and_variants(), ids=list(map(ids, cases_and_variants())))
def test_every_variant_walks_as_the_cpu(rng, tuning, case, options):
    """Tabu walks (on the device where the variant keeps them there, else driven from the host: forbids and
    selection through the variant) take the CPU's steps."""
    problem, nbh, ev = made(case, **options)
    tenure = max(1, problem.n // 4)
    if walks_on_device(ev):
        device_walks_agree(problem, nbh, ev, rng, tenure)
        return
    cpu, c = prepare(problem, nbh, "cpu"), rng.random(problem.n_obj) / 1e3
    x = problem.random_solution(rng)
    threshold = float(c @ problem.evaluate_one(x))
    for got, want in zip(trail(host_walk(ev, nbh, x, c, threshold, 25, tenure)),
                         trail(host_walk(cpu, nbh, x, c, threshold, 25, tenure))):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("options", [{"block": 64}, {"tune": True}, {"block": 2048}])
def test_a_tabu_search_takes_the_default_trajectory(tuning, options):
    base = RunConfig("nug12", problem="qap", algorithm="tabu", backend="gpu", iterations=60, seed=3)
    want = build_search(dataclasses.replace(base, tune=False)).run()
    with pytest.warns(UserWarning, match="fails") if options.get("block") == 2048 else nullcontext():
        got = build_search(dataclasses.replace(base, **options)).run()
    assert got.iterations == want.iterations
    np.testing.assert_array_equal(got.archive.X, want.archive.X)
    np.testing.assert_array_equal(got.archive.F, want.archive.F)


def test_an_impossible_block_is_caught_and_replaced(rng):
    problem, nbh, default = made(CASES[2], tune=False)
    with pytest.warns(UserWarning, match="fails"):
        ev = prepare(problem, nbh, BackendSpec("gpu", block=2048))
    assert ev.launch == DEFAULT_LAUNCH
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(ev.evaluate(x), default.evaluate(x).copy())


def test_a_failing_cached_launch_falls_back(tuning, rng):
    problem = load_problem("ppp", "401-417")
    nbh = problem.neighborhood("hamming1")
    default = prepare(problem, nbh, BackendSpec("gpu", tune=False))
    key = tuning_key(default.device, problem, nbh, BackendSpec("gpu"))
    TuningCache(launches={key: Launch(1024, 256)}).save()
    with pytest.warns(UserWarning, match="fails"):
        ev = prepare(problem, nbh, BackendSpec("gpu", tune=True))
    assert ev.launch == DEFAULT_LAUNCH
    x = problem.random_solution(rng)
    np.testing.assert_array_equal(ev.evaluate(x), default.evaluate(x).copy())
