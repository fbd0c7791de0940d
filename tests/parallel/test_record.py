"""The record of many searches built from what this process wrote equals the one read back from their folders."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mols.parallel.record import MERGED, Written, write_merged, write_seed
from mols.results import FRONT, MANIFEST, RunContext, results_files
from mols.runner import RunConfig, build_search


def runs_of(fields: dict, seeds) -> dict[int, tuple[dict, np.ndarray]]:
    """Each seed's files and archive values, as a task returns them."""
    runs = {}
    for seed in seeds:
        config = RunConfig(**(fields | {"seed": seed, "threads": 1}))
        search = build_search(config)
        result = search.run()
        runs[seed] = (results_files(config, result, RunContext.of(search)), result.archive.F)
    return runs


@pytest.mark.parametrize("fields", [
    {"instance": "tai12a", "problem": "qap", "algorithm": "hc", "iterations": 3},  # one objective: ties likely
    {"instance": "020_10_01", "problem": "flowshop", "algorithm": "pls", "iterations": 5},
])
def test_the_record_from_memory_equals_the_record_from_the_folders(fields, tmp_path):
    runs = runs_of(fields | {"backend": "cpu"}, range(6))
    for seed, (files, _) in runs.items():
        write_seed(tmp_path, seed, files)
    codes = dict.fromkeys(runs, 0)
    from_disk = write_merged(tmp_path, list(runs), codes, "processes")
    merged = (tmp_path / MERGED).read_bytes()
    written = {seed: Written.of(files, F) for seed, (files, F) in runs.items()}
    assert write_merged(tmp_path, list(runs), codes, "processes", written=written) == from_disk
    assert (tmp_path / MERGED).read_bytes() == merged
    assert from_disk["merged"]["rows"] >= 1


def test_a_seed_tied_with_the_best_keeps_its_rows_in_the_merged_front(tmp_path):
    fields = {"instance": "tai12a", "problem": "qap", "algorithm": "hc", "iterations": 2, "backend": "cpu"}
    (files, F), = runs_of(fields, [0]).values()
    written = {seed: Written.of(files, F) for seed in (4, 5)}  # two seeds that found the same solution
    write_merged(tmp_path, [4, 5], {4: 0, 5: 0}, "processes", written=written)
    merged = (tmp_path / MERGED).read_text().splitlines()
    assert len(merged) == 1 + 2 * len(F[F[:, 0] == F[:, 0].min()])
    assert json.loads(files[MANIFEST])["archive_size"] == len(F) and files[FRONT]
