"""Results folders: front.csv holds the archive, run.json says how the run went."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from mols.archive import Archive
from mols.errors import MolsError
from mols.problems.flowshop.model import OBJECTIVES
from mols.results import (
    FRONT,
    MANIFEST,
    TRACE,
    ResultsFolder,
    RunContext,
    front_csv,
    write_results,
    write_run,
)
from mols.runner import RunConfig, build_search
from mols.search.base import SearchResult

PROFILE = {"evaluation": {"seconds": 0.5, "percent": 50.0}, "archiving": {"seconds": 0.25, "percent": 25.0},
           "ls process": {"seconds": 0.25, "percent": 25.0}}


@pytest.fixture(scope="module")
def finished():
    config = RunConfig(instance="020_05_01", backend="cpu", iterations=15, seed=2, neighborhood="swap")
    search = build_search(config)
    return config, search, search.run()


def test_front_csv_and_run_json(tmp_path, finished):
    config, search, result = finished
    folder = tmp_path / "nested" / "run"  # made, parents included
    write_results(folder, config, result, RunContext.of(search))
    front = pd.read_csv(folder / FRONT)
    assert list(front.columns) == [*OBJECTIVES, "solution"]
    assert len(front) == len(result.archive) > 0
    F = front[list(OBJECTIVES)].to_numpy()
    assert [tuple(row) for row in F] == sorted(tuple(row) for row in F)  # sorted by objectives, in order
    X = np.array([[int(v) for v in text.split()] for text in front["solution"]])
    np.testing.assert_array_equal(F, search.problem.evaluate(X))
    members = {(tuple(f), tuple(x)) for f, x in zip(result.archive.F.tolist(), result.archive.X.tolist())}
    assert {(tuple(f), tuple(x)) for f, x in zip(F.tolist(), X.tolist())} == members

    run = json.loads((folder / MANIFEST).read_text())
    assert run["status"] == "completed" and run["error"] is None
    assert run["config"]["instance"] == "020_05_01" and run["config"]["iterations"] == 15
    assert RunConfig(**run["config"]) == config
    assert run["algorithm"] == "pls-nondominated" and run["objectives"] == list(OBJECTIVES)
    assert set(run["profile"]) == {"evaluation", "archiving", "ls process"}
    assert run["iterations"] == 15 and run["archive_size"] == len(result.archive)
    assert run["walk"] == "host"  # where PLS iterations ran: the CPU backend drives each from the host
    assert run["evaluated_neighbors"] == 15 * run["neighbors_per_iteration"] == 15 * 190
    assert run["starts"] == result.starts
    assert run["device"] == search.evaluator.device and run["threads"] == search.evaluator.threads
    assert run["backend"] == search.evaluator.label == f"cpu x{search.evaluator.threads}"
    assert run["encoding"] == "permutation" and run["n_vars"] == 20
    assert run["instance"] == "020_05_01"
    assert {"python", "numpy", "numba", "gpu"} <= set(run["environment"])


def test_writing_again_replaces_the_files(tmp_path, finished):
    config, search, result = finished
    (tmp_path / FRONT).write_text("stale\n" * 1000)
    for _ in range(2):
        write_results(tmp_path, config, result, RunContext.of(search))
    assert len(pd.read_csv(tmp_path / FRONT)) == len(result.archive)


def test_front_is_sorted_by_the_first_objective_then_the_next():
    archive = Archive(3, 3)
    archive.add(np.array([[5, 1, 9], [2, 7, 1], [2, 3, 8], [9, 0, 0]]), np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1],
                                                                                   [2, 1, 0]]))
    result = SearchResult(archive, 1, 6, 0.1, PROFILE)
    frame = pd.read_csv(io.BytesIO(front_csv(result, OBJECTIVES)))
    assert frame[list(OBJECTIVES)].values.tolist() == [[2, 3, 8], [2, 7, 1], [5, 1, 9], [9, 0, 0]]
    assert list(frame["solution"]) == ["2 0 1", "1 2 0", "0 1 2", "2 1 0"]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_front_csv_writes_what_pandas_wrote(dtype):
    """front.csv is written without pandas (for a fast start): byte for byte what DataFrame.to_csv wrote before."""
    rng = np.random.default_rng(1)
    F = rng.standard_normal((300, 3)) * 10.0 ** rng.integers(-20, 20, (300, 1))
    F = F.astype(dtype) if np.dtype(dtype).kind == "f" else (F * 1e3).astype(dtype)
    archive = SimpleNamespace(F=F, X=rng.permuted(np.tile(np.arange(3), (300, 1)), axis=1))  # what front_csv reads
    order = np.lexsort(F.T[::-1])
    expected = pd.DataFrame(F[order], columns=list(OBJECTIVES))
    expected["solution"] = [" ".join(map(str, x.tolist())) for x in archive.X[order]]
    assert front_csv(SearchResult(archive, 1, 6, 0.1, PROFILE), OBJECTIVES) == expected.to_csv(index=False).encode()


def test_empty_archive_writes_a_header(tmp_path):
    result = SearchResult(Archive(3, 5), 0, 10, 0.0, PROFILE, status="interrupted")
    write_results(tmp_path, RunConfig(instance="x"), result, RunContext("x", OBJECTIVES, "cpu"))
    front = pd.read_csv(tmp_path / FRONT)
    assert list(front.columns) == [*OBJECTIVES, "solution"] and len(front) == 0
    run = json.loads((tmp_path / MANIFEST).read_text())
    assert run["status"] == "interrupted" and run["archive_size"] == 0


def test_folder_that_is_a_file(tmp_path, finished):
    config, search, result = finished
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    with pytest.raises(MolsError, match="taken"):
        write_results(taken, config, result, RunContext.of(search))
    assert taken.read_text() == "not a folder"


def test_a_folder_in_use_is_refused(tmp_path, finished):
    config, search, result = finished
    with ResultsFolder(tmp_path / "run") as held:
        with pytest.raises(MolsError, match="in use by another mols run"):
            ResultsFolder(tmp_path / "run", overwrite=True).__enter__()
        write_run(held, config, result, RunContext.of(search))
    with ResultsFolder(tmp_path / "run", overwrite=True):  # free again once released
        pass


def test_a_run_there_is_kept_unless_overwrite(tmp_path, finished):
    config, search, result = finished
    write_results(tmp_path, config, result, RunContext.of(search))
    with pytest.raises(MolsError, match="holds a run already; give --overwrite"):
        ResultsFolder(tmp_path).__enter__()
    assert (tmp_path / MANIFEST).exists()


def test_run_json_records_the_front_it_belongs_to(tmp_path, finished):
    config, search, result = finished
    write_results(tmp_path, config, result, RunContext.of(search))
    run = json.loads((tmp_path / MANIFEST).read_text())
    data = (tmp_path / FRONT).read_bytes()
    assert run["front"] == {"file": FRONT, "rows": len(result.archive), "sha256": hashlib.sha256(data).hexdigest()}
    trace = (tmp_path / TRACE).read_bytes()
    assert run["trace"] == {"file": TRACE, "rows": len(result.trace.rows), "sha256": hashlib.sha256(trace).hexdigest(),
                            "reference_point": result.trace.reference.tolist()}
    assert sorted(p.name for p in tmp_path.iterdir()) == [FRONT, MANIFEST, TRACE]  # no temporary file left
    assert (tmp_path.parent / f".{tmp_path.name}.mols.lock").is_file()  # the lock is beside the folder


def test_a_replacing_run_that_cannot_be_written_keeps_the_old_run_whole_and_a_rescue_copy(tmp_path, finished,
                                                                                          monkeypatch):
    """A full disk (ENOSPC on the rename, after both files were staged): the old run's files are untouched and
    consistent, the new run's files are in a rescue folder that the error names, and no temporary file is left."""
    config, search, result = finished
    folder = tmp_path / "run"
    write_results(folder, config, result, RunContext.of(search))
    before = {name: (folder / name).read_bytes() for name in (FRONT, MANIFEST, TRACE)}

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", full)
    with pytest.raises(MolsError, match="No space left on device") as caught:
        write_results(folder, config, result, RunContext.of(search))
    monkeypatch.undo()
    assert {name: (folder / name).read_bytes() for name in (FRONT, MANIFEST, TRACE)} == before
    assert sorted(p.name for p in folder.iterdir()) == [FRONT, MANIFEST, TRACE]
    rescued = Path(str(caught.value).split(" are in ")[1])
    assert (rescued / FRONT).read_bytes() == before[FRONT] and json.loads((rescued / MANIFEST).read_text())["front"]
    assert (rescued / TRACE).read_bytes() == before[TRACE]


def test_a_folder_made_for_nothing_is_taken_away(tmp_path):
    with ResultsFolder(tmp_path / "a" / "b"):
        assert (tmp_path / "a" / "b").is_dir() and (tmp_path / "a" / ".b.mols.lock").exists()
    assert not (tmp_path / "a" / "b").exists()
