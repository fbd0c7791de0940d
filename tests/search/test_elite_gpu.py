"""On the device only: the elite search's walks side by side in lanes (per-walk tenures, forced swaps' tabu memory,
Ro-TS's tables) give exactly the CPU's archive for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from mols.algorithms.elite import search as elite_search
from mols.algorithms.elite.device import device_rounds
from mols.algorithms.tabu import together
from mols.algorithms.tabu.walks import lane_walker
from mols.runner import RunConfig, build_search, solve

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("instance, problem, extra", [  # qap: Ro-TS's memory (ROTS) unless it says moves
    ("tai12a", "qap", {"aspiration": 40}),  # qap_walk_step; forced swaps made tabu at a round's start
    ("tai50a", "qap", {}),  # qap_taillard_step (from 40 facilities)
    ("tai50a", "qap", {"tenures": (0.3, 1.7), "aspiration": 300}),
    ("020_10_01", "flowshop", {"objectives": ("makespan",)}),  # insertion moves
    ("tai12a", "qap", {"tabu_memory": "moves", "aspiration": 40}),  # the tabu memory of moves, both kernels
    ("tai50a", "qap", {"tabu_memory": "moves"}),
    ("tai50a", "qap", {"tabu_memory": "rots", "period": 150}),  # tenures redrawn within a round (every 2 x 55 steps)
])
def test_elite_steps_give_the_same_archive_on_both_backends(instance, problem, extra):
    results, walkers = {}, []
    for backend in ("gpu", "cpu"):
        config = RunConfig(instance, problem=problem, algorithm="elite", backend=backend, iterations=6000, seed=7,
                           walkers=12, launch="step", **{"period": 40, **extra})
        with pytest.MonkeyPatch.context() as patch:  # the walkers made: tabu's, or the Ro-TS memory's (elite's own)
            for module in (together, elite_search):
                patch.setattr(module, "lane_walker", lambda ev, n, *rots, made=walkers: made.append(
                    lane_walker(ev, n, *rots)) or made[-1])
            results[backend] = solve(config)
        assert results[backend].status == "completed", results[backend].error
    assert any(w is not None for w in walkers)  # the GPU walked them side by side
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(results["gpu"].archive, part), getattr(results["cpu"].archive, part))


def test_rounds_on_the_gpu_are_30_n_steps_but_longer_on_small_instances_by_default():
    periods = {name: build_search(RunConfig(name, problem="qap", algorithm="elite", backend="gpu", iterations=10)).period
               for name in ("tai25a", "tai50a", "tai100a")}
    assert periods == {"tai25a": 20000, "tai50a": 5000, "tai100a": 3000}


def test_elite_same_seed_same_run_on_the_gpu():
    config = RunConfig("tai25a", problem="qap", algorithm="elite", backend="gpu", iterations=5000, seed=2,
                       walkers=16, period=25)
    first, again = solve(config), solve(config)
    np.testing.assert_array_equal(first.archive.X, again.archive.X)
    assert first.walk == "device"


@pytest.mark.parametrize("instance, extra", [
    ("tai12a", {"aspiration": 40}), ("tai50a", {}), ("tai50a", {"tenures": (0.3, 1.7), "aspiration": 300}),
    ("tai50a", {"period": 150}),  # tenures redrawn within a round
])
def test_rounds_in_one_launch_give_the_cpu_archive(instance, extra):
    results, made = {}, []
    for backend in ("gpu", "cpu"):
        config = RunConfig(instance, problem="qap", algorithm="elite", backend=backend, iterations=6000, seed=7,
                           walkers=12, launch="round", **{"period": 40, **extra})
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(elite_search, "device_rounds", lambda ev: made.append(device_rounds(ev)) or made[-1])
            results[backend] = solve(config)
        assert results[backend].status == "completed", results[backend].error
    assert made and all(rounds is not None for rounds in made)  # the GPU took each round in one launch
    for part in ("F", "X"):
        np.testing.assert_array_equal(getattr(results["gpu"].archive, part), getattr(results["cpu"].archive, part))
    assert results["gpu"].iterations == results["cpu"].iterations == 6000
    assert results["gpu"].walk == "device"
