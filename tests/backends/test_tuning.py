"""The launch configuration's spec options and its tuning cache, without a device: validation, labels, the
cache file's key and its robustness (a broken or stale file is survived, with a warning, and rewritten)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import mols
from mols.backends import BackendSpec, gpu_available
from mols.backends.launch import DEFAULT_LAUNCH, Launch, problem_defines, problem_source, variant_defines
from mols.backends.tuning import TuningCache, cache_path, fixed_launch, tuning_key
from mols.cli import app
from mols.errors import MolsError
from mols.problems import load_problem

runner = CliRunner()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MOLS_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("options, message", [
    ({"generation": "cpu"}, "^generation cpu"), ({"selection": "host"}, "^selection host"),
    ({"memory": "texture"}, "^memory texture"), ({"block": 100}, "^block"), ({"block": 0}, "^block"),
])
def test_spec_refuses_unknown_options(options, message):
    """The library names the parameter (the CLI names the flag: OptionError.flagged)."""
    with pytest.raises(MolsError, match=message):
        BackendSpec("gpu", **options)


def test_label_names_what_differs_from_the_defaults():
    assert BackendSpec("gpu").label == "gpu"
    spec = BackendSpec("gpu", generation="host", selection="copy", memory="plain", block=256)
    assert spec.label == "gpu host moves copy plain memory block 256"
    assert BackendSpec("gpu", tune=True).label == "gpu tuned"


def test_fixed_launch_keeps_the_selection_a_power_of_two():
    assert fixed_launch(256) == Launch(256, 256)
    assert fixed_launch(96) == Launch(96, 64)


def test_cache_round_trip(cache_dir):
    assert cache_path() == cache_dir / f"tuning-{mols.__version__}.json"
    TuningCache(launches={"a": Launch(64, 512, 4, 2048), "b": DEFAULT_LAUNCH}).save()
    assert TuningCache.load().launches == {"a": Launch(64, 512, 4, 2048), "b": DEFAULT_LAUNCH}


@pytest.mark.parametrize("text", ["{not json", "[]", json.dumps({"mols": "0.0.1", "launches": {}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"block": 100}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"threads": 64}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"block": 2048}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"sel_block": 96}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"move_threads": 3}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"move_threads": 64}}}),
                                  json.dumps({"mols": mols.__version__, "launches": {"a": {"grid": 0}}})])
def test_a_broken_or_stale_cache_is_ignored_with_a_warning_and_rewritten(cache_dir, text):
    cache_path().write_text(text)
    with pytest.warns(UserWarning, match="ignoring the GPU tuning cache"):
        cache = TuningCache.load()
    assert cache.launches == {}
    cache.launches["k"] = Launch(32)
    cache.save()
    assert TuningCache.load().launches == {"k": Launch(32)}


def test_a_missing_cache_folder_is_made(tmp_path, monkeypatch):
    monkeypatch.setenv("MOLS_CACHE_DIR", str(tmp_path / "deep" / "er"))
    TuningCache(launches={"k": Launch(32)}).save()
    assert TuningCache.load().launches == {"k": Launch(32)}


def test_an_unwritable_cache_warns_and_goes_on(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("MOLS_CACHE_DIR", str(tmp_path / "file" / "below"))  # a folder under a file: never made
    with pytest.warns(UserWarning, match="cannot write the GPU tuning cache"):
        TuningCache(launches={"k": Launch(32)}).save()
    assert TuningCache.load().launches == {}


def test_key_names_device_problem_neighborhood_size_and_variants():
    problem = load_problem("qap", "nug12")
    nbh = problem.neighborhood("swap")
    key = tuning_key("NVIDIA H200", problem, nbh, BackendSpec("gpu", memory="shared"))
    assert key == "NVIDIA H200|qap|swap|n=12|k=1|int32|device|device|shared|fused"
    assert key != tuning_key("NVIDIA H100", problem, nbh, BackendSpec("gpu", memory="shared"))


def test_default_variants_leave_the_kernels_source_as_it_was():
    problem = load_problem("qap", "nug12")
    nbh = problem.neighborhood("swap")
    assert variant_defines(problem, nbh, BackendSpec("gpu")) == {}
    assert "nbh_host_moves" not in problem_source(problem_defines(problem, nbh), problem, nbh)
    defines = {**problem_defines(problem, nbh), **variant_defines(problem, nbh, BackendSpec("gpu", generation="host"))}
    assert "nbh_host_moves" in problem_source(defines, problem, nbh)


@pytest.mark.parametrize("problem_name, instance, nbh_name, options, message", [
    ("tsp", "eil101", "2opt", {"generation": "host"}, "--generation host: the 2opt"),
    ("tsp", "fnl4461", "swap", {"memory": "shared"}, "--memory shared: the coordinates and edges of fnl4461"),
    ("ppp", "73-73", "hamming1", {"memory": "shared"}, "--memory shared: the ppp problem's hamming1 kernel"),
    ("weierstrass", "1", "crowns", {"memory": "shared"}, "--memory shared: the weierstrass problem's kernels"),
    ("qap", "tai150b", "swap", {"memory": "shared"}, "--memory shared: the flow matrices of tai150b"),
])
def test_variants_a_problem_lacks_are_refused_naming_the_option(problem_name, instance, nbh_name, options, message):
    problem = load_problem(problem_name, instance)
    with pytest.raises(MolsError, match=message):
        variant_defines(problem, problem.neighborhood(nbh_name), BackendSpec("gpu", **options))


def test_four_problems_stage_their_data_in_shared_memory():
    for name, instance, nbh_name in (("qap", "nug12", "swap"), ("flowshop", "020_10_01", "insertion"),
                                     ("tsp", "d1291", "swap"), ("ppp", "401-417", "hamming2")):
        problem = load_problem(name, instance)
        defines = variant_defines(problem, problem.neighborhood(nbh_name), BackendSpec("gpu", memory="shared"))
        assert defines == {"MEMORY": 2}


@pytest.mark.parametrize("args, message", [
    (["--block", "100"], "--block must be a positive multiple"),
    (["-b", "cpu", "--block", "64"], "--block and --tune"),
    (["-b", "cpu", "--tune"], "--block and --tune"),
])
def test_run_refuses_bad_launch_options(tmp_path, args, message):
    result = runner.invoke(app, ["run", "020_05_01", "-i", "2", "-o", str(tmp_path / "out"), *args])
    assert result.exit_code == 1
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.skipif(gpu_available(), reason="the bench runs where there is a device")
def test_bench_gpu_techniques_says_it_needs_a_device(tmp_path):
    result = runner.invoke(app, ["bench", "gpu-techniques", "--quick", "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "CUDA device" in " ".join(result.output.split()) and "Traceback" not in result.output
