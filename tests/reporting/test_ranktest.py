"""The hypervolume rank tests: a clear difference is found and named, identical groups differ in nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mols.reporting.ranktest import NO_DIFFERENCE, hv_rank_tests


def runs(groups: dict[tuple[str, str], list[float]], instance: str = "toy") -> pd.DataFrame:
    """A runs table as the report builds it: one row per run, with its hypervolume."""
    return pd.DataFrame([{"group": instance, "instance": instance, "algorithm": algorithm, "backend": backend,
                          "seed": seed, "hv": hv} for (algorithm, backend), values in groups.items() for seed, hv in enumerate(values)])


@pytest.mark.parametrize("better_first", [True, False])
def test_clearly_higher_hypervolumes_are_named_better(better_first):
    rng = np.random.default_rng(0)
    high, low = list(0.8 + 0.01 * rng.random(6)), list(0.5 + 0.01 * rng.random(5))
    table = hv_rank_tests(runs({("pls", "cpu x1"): high if better_first else low,
                                ("tabu", "cpu x1"): low if better_first else high}))
    row = table.iloc[0]
    assert (row["A"], row["B"], row["runs A"], row["runs B"]) == ("pls · cpu x1", "tabu · cpu x1", *(
        (6, 5) if better_first else (5, 6)))
    assert row["p"] < 0.01
    assert row["better"] == ("pls · cpu x1" if better_first else "tabu · cpu x1")
    assert row["A12"] == (1.0 if better_first else 0.0)


def test_identical_groups_differ_in_nothing():
    hv = [0.3, 0.5, 0.4, 0.6]
    row = hv_rank_tests(runs({("pls", "cpu x1"): hv, ("pls", "gpu"): hv})).iloc[0]
    assert row["p"] == pytest.approx(1.0) and row["A12"] == 0.5 and row["better"] == NO_DIFFERENCE


def test_every_pair_in_each_group_and_none_across_groups():
    table = pd.concat([runs({("a", "gpu"): [0.1], ("b", "gpu"): [0.2], ("c", "gpu"): [0.3]}, "one"),
                       runs({("a", "gpu"): [0.1, 0.2]}, "two")])
    tests = hv_rank_tests(table)
    assert tests[["instance", "A", "B"]].values.tolist() == [
        ["one", "a · gpu", "b · gpu"], ["one", "a · gpu", "c · gpu"], ["one", "b · gpu", "c · gpu"]]
    assert (tests["better"] == NO_DIFFERENCE).all()  # one run a side proves nothing
