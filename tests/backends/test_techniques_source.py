"""The study variants' CUDA sources (backends/techniques.cuh), checked without a GPU where nvcc is installed: host
generation with shared staging, and plain loads, compile to PTX for the four problems of the study, shared
staging reads shared memory and plain loads leave the read-only cache alone."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from mols.algorithms.tabu.gpu_select import SELECT_CU
from mols.backends import BackendSpec
from mols.backends.cuda import C_TYPES
from mols.backends.launch import problem_defines, problem_source, variant_defines
from mols.problems import load_problem

NVCC = shutil.which("nvcc")
CASES = [("ppp", "73-73", "hamming2"), ("tsp", "eil101", "swap"), ("qap", "nug12", "swap"),
         ("flowshop", "020_10_01", "insertion")]


def ptx(tmp_path, case, **options) -> str:
    """The PTX of the problem's kernels under the options, after select.cu with 512-thread selection blocks."""
    problem = load_problem(case[0], case[1])
    nbh = problem.neighborhood(case[2])
    spec = BackendSpec("gpu", **options)
    defines = {**problem_defines(problem, nbh, 96), **variant_defines(problem, nbh, spec),
               "N_OBJ": problem.n_obj, "FVAL": C_TYPES[np.dtype(problem.dtype)], "SEL_BLOCK": 512}
    source = tmp_path / "variant.cu"
    source.write_text(problem_source(defines, problem, nbh, SELECT_CU.read_text()))
    out = tmp_path / "variant.ptx"
    done = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_90", str(source), "-o", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return out.read_text()


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_host_moves_with_shared_staging_compile(tmp_path, case):
    text = ptx(tmp_path, case, generation="host", memory="shared")
    assert "nbh_host_moves" in text and "ld.shared" in text


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_plain_loads_skip_the_read_only_cache(tmp_path, case):
    assert "ld.global.nc" in ptx(tmp_path, case, memory="readonly")
    assert "ld.global.nc" not in ptx(tmp_path, case, memory="plain")
