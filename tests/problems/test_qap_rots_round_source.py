"""The QAP's round kernel of Ro-TS walks (rots_round.cu), checked without a GPU: compiled as C++ and run thread by
thread (cuda_sim/), each walk's round equals RotsWalk's, its CPU twin, step for step: where the walk stands, its
cost, table and threshold, and its best."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mols.algorithms.elite.device import ROUND_THREADS, SHARED_LIMIT, round_source
from mols.problems import load_problem
from tests.problems.rots_cases import CASES, EVERY, SLOTS, instance, on_the_host, walks

GXX = shutil.which("g++")
SIM = Path(__file__).with_name("cuda_sim")


def compile_sim(folder: Path) -> None:
    """rots_main.cpp built, with the sanitizer of misaligned loads and stores where g++ has it (a block's shared
    memory is carved into arrays of 4 and 8 bytes: a GPU faults where one is misaligned)."""
    flags = ["-std=c++20", "-O1", "-pthread", "-w", "rots_main.cpp", "-o", "sim"]
    done = subprocess.run([GXX, "-fsanitize=alignment", "-fno-sanitize-recover=all", *flags], cwd=folder,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 and "barrier" not in done.stderr:  # no sanitizer library: build without it
        done = subprocess.run([GXX, *flags], cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0 and "barrier" in done.stderr:
        pytest.skip("g++ without C++20 <barrier>")
    assert done.returncode == 0, done.stderr[-3000:]


def simulated(folder: Path, problem, given: dict, threads: int) -> dict:
    """Each walk's round by qap_rots_round, a block of `threads` C++ threads (the walks' costs left out), and "used":
    the bytes of shared memory a block wrote."""
    source = round_source(problem, problem.neighborhood("swap"), threads)
    source = source.replace("extern __shared__ long long shared[];", "long long* shared = g_round_smem;")
    (folder / "rots_sim.cu").write_text(source)
    for name in ("shim.h", "rots_main.cpp"):
        shutil.copy(SIM / name, folder / name)
    kernels = problem.kernels
    inputs = {**given, "costs": np.zeros_like(given["costs"])}  # the kernel finds the starts' costs itself
    for name, array in (("A", kernels.A[0]), ("AT", kernels.AT[0]), ("B", kernels.b), *inputs.items()):
        np.ascontiguousarray(array).tofile(folder / f"{name}.bin")
    compile_sim(folder)
    done = subprocess.run(["./sim", str(len(given["lengths"])), str(threads), str(SLOTS), str(EVERY)], cwd=folder,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = {name: np.fromfile(folder / f"{name}.bin", array.dtype).reshape(array.shape) for name, array in given.items()}
    return out | {"used": int(np.fromfile(folder / "used.bin", np.int64)[0])}


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
@pytest.mark.parametrize("case, threads", zip(CASES, (64, 128, 32, 16)))  # touching swaps split 2, 4, 1, 1 ways
def test_a_round_of_each_walk_is_its_cpu_walk(tmp_path, rng, case, threads):
    problem = instance(case, rng)
    given = walks(problem, rng, [60, 0, 35])
    device, host = simulated(tmp_path, problem, given, threads), on_the_host(problem, given)
    used = device.pop("used")  # the launch asks for what the block takes
    assert used == problem.kernels.rots_round(problem.neighborhood("swap"), threads).shared
    assert host["best_costs"][0] < given["best_costs"][0]  # the round found a new best: best_perms is checked
    for name in given:
        np.testing.assert_array_equal(device[name], host[name], err_msg=name)


def test_the_round_kernel_fits_tai100a_in_a_block():
    tai100a = load_problem("qap", "tai100a")
    assert tai100a.kernels.rots_round(tai100a.neighborhood("swap"), ROUND_THREADS).shared <= SHARED_LIMIT
