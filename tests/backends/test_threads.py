"""The CPU backend's choice of threads (backends/threads.py), driven by made-up call times."""

from __future__ import annotations

import numpy as np

from mols.backends.threads import PATIENCE, PROBE, ThreadChoice


def drive(choice: ThreadChoice, cost, calls: int) -> list[int]:
    """Make `calls` calls, each taking cost(threads, call) seconds; the threads of each call."""
    used = []
    for call in range(calls):
        threads = choice.next()
        choice.record(threads, cost(threads, call))
        used.append(threads)
    return used


def test_it_settles_on_the_faster_setting():
    slow_parallel = drive(ThreadChoice(8), lambda t, call: 3e-5 if t == 1 else 9e-5, 2000)
    fast_parallel = drive(ThreadChoice(8), lambda t, call: 8e-3 if t == 1 else 1e-3, 2000)
    assert slow_parallel[-100:].count(1) > 90 and fast_parallel[-100:].count(8) > 90


def test_checking_the_other_setting_costs_little():
    """However slow the other setting is, the checks cost at most 1 / PATIENCE of the run, and less as
    they keep confirming the choice."""
    for ratio in (1.5, 10, 1000):
        used = drive(ThreadChoice(8), lambda t, call, ratio=ratio: 1e-4 * (ratio if t == 8 else 1), 100000)
        extra = sum(1e-4 * (ratio - 1) for t in used[50:] if t == 8)
        assert extra <= 1e-4 * len(used) / PATIENCE, ratio
        late = sum(1e-4 * (ratio - 1) for t in used[50000:] if t == 8)
        assert late <= 1e-4 * 50000 / (4 * PATIENCE), ratio


def test_it_follows_a_change_of_load():
    """Parallel calls pay until another process takes the cores, then one thread does."""
    used = drive(ThreadChoice(4), lambda t, call: (1e-3 if t == 4 else 3e-3) if call < 3000 else
                 (9e-3 if t == 4 else 3e-3), 6000)
    assert used[2900:3000].count(4) > 90 and used[-100:].count(1) > 90


def test_one_odd_call_does_not_flip_the_choice():
    """A call with more work than usual (a full rebuild after a restart) is one of PROBE in a median."""
    rng = np.random.default_rng(0)
    spikes = set(rng.choice(np.arange(100, 5000), 40, replace=False).tolist())
    used = drive(ThreadChoice(4), lambda t, call: (5e-3 if call in spikes else 1e-4) * (1 if t == 1 else 2), 5000)
    assert used[200:].count(1) / len(used[200:]) > 0.95


def test_given_threads_are_kept():
    assert set(drive(ThreadChoice(8, fixed=3), lambda t, call: 1.0 if t == 3 else 0.1, 100)) == {3}
    assert set(drive(ThreadChoice(1), lambda t, call: 1.0, 100)) == {1}


def test_both_settings_are_measured_first():
    used = drive(ThreadChoice(8), lambda t, call: 1e-3, 2 * (PROBE + 1))
    assert used == [8] * (PROBE + 1) + [1] * (PROBE + 1)
