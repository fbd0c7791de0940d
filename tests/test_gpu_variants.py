"""`mols run --generation/--selection/--memory`: the papers' GPU evaluation variants from the command line; they
change where the work is done, never a result."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mols.cli import app
from mols.errors import OptionError
from mols.results import folder_name
from mols.runner import RunConfig, solve

runner = CliRunner()


def test_the_variants_reach_the_backend_spec_and_name_the_results_folder():
    config = RunConfig("020_05_01", algorithm="tabu", backend="gpu", generation="host", selection="copy",
                       memory="readonly")
    spec = config.spec
    assert (spec.generation, spec.selection, spec.memory) == ("host", "copy", "readonly")
    assert "host moves" in spec.label and "copy" in spec.label
    name = folder_name(config)
    assert "hostgen" in name and "copysel" in name and "readonlymem" in name
    assert not {"gen", "sel", "mem"} & set(folder_name(RunConfig("020_05_01", backend="gpu")).split("-"))


@pytest.mark.parametrize("flag, value", [("--generation", "host"), ("--selection", "copy"), ("--memory", "shared")])
def test_a_gpu_variant_on_the_cpu_is_refused_naming_its_flag(flag, value, tmp_path):
    result = runner.invoke(app, ["run", "020_05_01", "-b", "cpu", flag, value, "-o", str(tmp_path / "r")])
    assert result.exit_code == 1 and f"{flag} {value}" in result.output and "on the cpu" in result.output
    assert not (tmp_path / "r").exists()
    with pytest.raises(OptionError, match=f"^{flag[2:]} {value}"):
        RunConfig("020_05_01", backend="cpu", **{flag[2:]: value})


def test_an_unknown_variant_is_refused():
    result = runner.invoke(app, ["run", "020_05_01", "--generation", "sideways"])
    assert result.exit_code == 1 and "sideways" in result.output


@pytest.mark.gpu
@pytest.mark.parametrize("variant", [{"generation": "host"}, {"selection": "copy"}, {"memory": "plain"},
                                     {"memory": "readonly"}, {"generation": "host", "selection": "copy"}])
def test_a_variant_finds_what_the_default_finds(variant):
    fields = {"instance": "020_10_01", "algorithm": "tabu", "backend": "gpu", "iterations": 300, "seed": 4}
    default, varied = solve(RunConfig(**fields)), solve(RunConfig(**fields, **variant))
    assert varied.archive.F.tolist() == default.archive.F.tolist()
    assert varied.archive.X.tolist() == default.archive.X.tolist()
