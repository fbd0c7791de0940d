"""The ILS-3opt CUDA source compiles (nvcc --ptx, where nvcc is installed): a check of the kernels on machines
without a GPU, with the #defines the GPU build prepends (EUC_2D and ATT)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from mols.problems.tsp.ils3opt_gpu import KERNELS, ils3opt_source

NVCC = shutil.which("nvcc")


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("n, k, seg, att", [(3038, 40, 50, False), (9, 8, 2, True)])
def test_source_compiles_to_ptx(tmp_path, n, k, seg, att):
    source = tmp_path / "ils3opt.cu"
    source.write_text(ils3opt_source(n, k, seg, att))
    ptx = tmp_path / "ils3opt.ptx"
    done = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_80", str(source), "-o", str(ptx)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    text = ptx.read_text()
    for name in [*KERNELS.values(), "ils_rkbi_prepare", "ils_rkbi_sample", "ils_rkbi_apply", "ils_rkbi_accept"]:
        assert f".entry {name}(" in text
