"""The Q3AP's CUDA sources checked without a GPU: both forms' kernels (evaluation, fused selection, apply) compile with
nvcc --ptx where nvcc is installed, and the general form's evaluation and apply kernels, compiled as C++ and run
thread by thread (cuda_sim/), give exactly the Numba kernels' F and the moved states, lanes included."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mols.algorithms.tabu.gpu_select import SELECT_CU
from mols.backends import prepare
from mols.backends.base import state_layout
from mols.backends.cuda import C_TYPES, packed_nbytes, packed_offsets
from mols.backends.launch import problem_defines, problem_source
from mols.neighborhoods.pair_swaps import ADVANCED, BASIC
from mols.problems import load_problem
from mols.problems.q3ap import Q3apGeneral, from_product
from tests.problems.q3ap_cases import random_general_problem

NVCC, GXX = shutil.which("nvcc"), shutil.which("g++")
SIM = Path(__file__).with_name("cuda_sim")
LANES = 3
KERNELS = {"q3ap": ["q3ap_neighborhood", "q3ap_neighborhood_select", "q3ap_apply"],
           "general": ["q3ap_general_neighborhood", "q3ap_general_neighborhood_select", "q3ap_general_apply"]}


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("nbh", [BASIC, ADVANCED], ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("form", ["q3ap", "general", "general-symmetric", "general-int64"])
def test_both_forms_compile_to_ptx(tmp_path, nbh, form):
    nug12 = load_problem("q3ap", "nug12")
    problem = {"q3ap": nug12, "general": random_general_problem(np.random.default_rng(1), 9, False),
               "general-symmetric": Q3apGeneral(from_product(nug12.instance)),
               "general-int64": random_general_problem(np.random.default_rng(2), 6, False, big=True)}[form]
    defines = {**problem_defines(problem, nbh, 128), "N_OBJ": 1, "FVAL": C_TYPES[np.dtype(problem.dtype)]}
    source = tmp_path / "q3ap.cu"
    source.write_text(problem_source(defines, problem, nbh, SELECT_CU.read_text()))
    ptx = tmp_path / "q3ap.ptx"
    done = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_90", str(source), "-o", str(ptx)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    for name in KERNELS[form.split("-")[0]]:
        assert f".entry {name}(" in ptx.read_text()


def simulate(folder: Path, problem, nbh, xs: list[np.ndarray], moves: list[int], f: list[int]):
    """The general form's kernels run as C++ over the lanes xs: (F (lanes, n_moves), the states after the moves)."""
    layout = state_layout(problem, nbh)
    source = problem_source(problem_defines(problem, nbh, 32), problem, nbh)
    (folder / "q3ap_sim.cu").write_text(source)
    for name in ("shim.h", "q3ap_main.cpp"):
        shutil.copy(SIM / name, folder / name)
    stride, offsets = packed_nbytes(layout), packed_offsets(layout)
    state = np.zeros(len(xs) * stride, np.uint8)
    for lane, x in enumerate(xs):
        arrays = [state[lane * stride + o:lane * stride + o + np.dtype(d).itemsize * int(np.prod(s))].view(d)
                  for o, (s, d) in zip(offsets, layout)]
        problem.kernels.fill_state(x, arrays)
    C, b = problem.kernels.data()
    for name, array in (("C", C), ("b", b), ("state", state), ("moves", np.array(moves, np.int64)),
                        ("f", np.array(f, problem.dtype))):
        np.ascontiguousarray(array).tofile(folder / f"{name}.bin")
    done = subprocess.run([GXX, "-std=c++20", "-O1", "-pthread", "-w", "q3ap_main.cpp", "-o", "sim"], cwd=folder,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 and "barrier" in done.stderr:
        pytest.skip("g++ without C++20 <barrier>")
    assert done.returncode == 0, done.stderr[-3000:]
    n_moves = nbh.n_neighbors(problem.n)
    done = subprocess.run(["./sim", str(n_moves), str(len(xs)), str(offsets[1])], cwd=folder, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    F = np.fromfile(folder / "F.bin", problem.dtype).reshape(len(xs), n_moves)
    after = np.fromfile(folder / "after.bin", np.uint8).reshape(len(xs), stride)
    return F, [(row[:offsets[1]].view(np.int32)[:2 * problem.n], row[offsets[1]:].view(problem.dtype)[0])
               for row in after]


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
@pytest.mark.parametrize("nbh", [BASIC, ADVANCED], ids=lambda nbh: nbh.name)
@pytest.mark.parametrize("n, symmetric, big", [(2, False, False), (5, False, False), (6, True, False),
                                               (7, False, True), (5, True, True)])
def test_kernels_as_cpu_threads_equal_numba(tmp_path, nbh, n, symmetric, big):
    """Lanes of different solutions: each lane's rows of F are the Numba kernel's for its solution, and each lane's
    state after its move (the last lane's move is -1: its walk has ended) is the neighbor's."""
    rng = np.random.default_rng(n + 10 * big)
    problem = random_general_problem(rng, n, symmetric, big)
    assert problem.symmetric == symmetric and (problem.dtype == np.int64) == big
    xs = [problem.random_solution(rng) for _ in range(LANES)]
    cpu = prepare(problem, nbh, "cpu")
    want = np.array([cpu.evaluate(x)[:, 0].copy() for x in xs])  # F is the evaluator's buffer, reused
    moves = [int(rng.integers(len(want[0]))) for _ in xs[:-1]] + [-1]
    F, after = simulate(tmp_path, problem, nbh, xs, moves, [want[lane, m] for lane, m in enumerate(moves)])
    np.testing.assert_array_equal(F, want)
    for lane, (x, cost) in enumerate(after):
        moved = xs[lane] if moves[lane] < 0 else nbh.apply_many(xs[lane], np.array([moves[lane]]))[0]
        np.testing.assert_array_equal(x, moved)
        assert cost == problem.evaluate(moved)[0]
