"""3-exchange's CUDA sources, checked without a GPU: every module a run compiles for it builds with nvcc --ptx (where
nvcc is installed), and its kernels, compiled as C++ that runs blocks and threads one after another (cuda_sim/
sequential.h, where g++ is), give exactly the Numba twins' moves, objective vectors and states."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mols.algorithms.tabu.gpu_select import SELECT_CU
from mols.algorithms.tabu.gpu_walk import WALK_CU
from mols.backends import BackendSpec, prepare
from mols.backends.cuda import C_TYPES, kernel_source
from mols.backends.launch import problem_defines, problem_source, variant_defines
from mols.neighborhoods import get_neighborhood
from mols.neighborhoods.base import HERE
from mols.problems import load_problem
from mols.problems.flowshop.model import Flowshop
from mols.problems.qap.instance import QapInstance
from mols.problems.qap.model import Qap
from tests.conftest import random_instance
from tests.problems.test_tsp_model import random_tsp

NVCC, GXX = shutil.which("nvcc"), shutil.which("g++")
SEQUENTIAL = Path(__file__).with_name("cuda_sim") / "sequential.h"
THREE = get_neighborhood("3exchange")
ENTRIES = {"qap": ["qap_neighborhood", "qap_neighborhood_select", "qap_apply", "qap_walk_step"],
           "tsp": ["tsp_3exchange", "tsp_3exchange_select", "tsp_3exchange_apply"],
           "flowshop": ["flowshop_neighborhood", "flowshop_apply", "flowshop_load"]}


def qap(rng, n: int, k: int, symmetric: bool, high: int = 100) -> Qap:
    a, b = rng.integers(-50, high, size=(k, n, n)), rng.integers(0, 1000, size=(n, n))
    if symmetric:
        a, b = a + a.transpose(0, 2, 1), b + b.T
    return Qap(QapInstance("random", a, b))


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("problem, instance, generation", [("qap", "nug12", "device"), ("qap", "asymmetric", "host"),
                                                           ("tsp", "eil101", "device"), ("bitsp", "kroAB100", "host"),
                                                           ("flowshop", "020_10_01", "device")])
def test_modules_compile_to_ptx(tmp_path, problem, instance, generation):
    """The evaluation, fused selection, apply and whole-step kernels (with select.cu and walk.cu, as gpu_walk.py
    compiles them), the resident archive's source, and --generation host's variant; QAP's Taillard step is not
    there (a swap's)."""
    pb = qap(np.random.default_rng(0), 13, 2, False) if instance == "asymmetric" else load_problem(problem, instance)
    spec = BackendSpec("gpu", generation=generation)
    defines = {**problem_defines(pb, THREE, 128), **variant_defines(pb, THREE, spec),
               "N_OBJ": pb.n_obj, "FVAL": C_TYPES[np.dtype(pb.dtype)], "SEL_BLOCK": 256, "WALK_STEP": 1}
    source = tmp_path / "three.cu"
    source.write_text(problem_source(defines, pb, THREE, SELECT_CU.read_text(), WALK_CU.read_text()))
    done = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_90", str(source), "-o", str(tmp_path / "three.ptx")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "three.ptx").read_text()
    for name in ENTRIES[problem.removeprefix("bi").replace("mqap", "qap")] + ["walk_step"]:
        assert f".entry {name}(" in text
    assert "qap_taillard_step" not in text and ("nbh_host_moves" in text) == (generation == "host")


def simulate(tmp_path, source: str, kernel: str, args: list, blocks: int, threads: int = 1) -> list:
    """`kernel` of `source` run on the CPU, blocks and their threads in turn: args are arrays (pointers; `(array,
    "double2")` for pairs of doubles) or ints; the arrays after the run, in order."""
    arrays = [a if isinstance(a, tuple) else (a, C_TYPES[a.dtype]) for a in args if not isinstance(a, int)]
    counts = [a.nbytes // 16 if ctype == "double2" else a.size for a, ctype in arrays]
    lines, call = [], []
    for a in args:
        if isinstance(a, int):
            call.append(f"(long long){a}LL")
            continue
        q = len(lines)
        array, ctype = arrays[q]
        array.tofile(tmp_path / f"a{q}.bin")
        lines.append(f"{ctype}* a{q} = sim_load<{ctype}>({q}, {counts[q]}LL);")
        call.append(f"a{q}")
    launch = f"{{ blockIdx.x = (int)b; threadIdx.x = t; {kernel}({', '.join(call)}); }}"
    main = "\n".join([f'#include "{SEQUENTIAL}"', source, "int main() {", *lines,
                      f"gridDim.x = {blocks}; blockDim.x = {threads};",
                      f"for (long long b = 0; b < {blocks}; ++b) for (int t = 0; t < {threads}; ++t) {launch}",
                      *(f"sim_save({q}, a{q}, {counts[q]}LL);" for q in range(len(arrays))), "return 0;", "}", ""])
    (tmp_path / "main.cpp").write_text(main)
    built = subprocess.run([GXX, "-std=c++17", "-O1", "-ffp-contract=off", "-w", "-o", "main", "main.cpp"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-4000:]
    ran = subprocess.run([str(tmp_path / "main")], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         check=False)
    assert ran.returncode == 0, ran.stderr
    return [np.fromfile(tmp_path / f"o{q}.bin", dtype=a.dtype).reshape(a.shape) for q, (a, _) in enumerate(arrays)]


def state(problem, x) -> tuple[np.ndarray, ...]:
    fresh = tuple(np.zeros(shape, dtype) for shape, dtype in problem.kernels.state_layout())
    problem.kernels.fill_state(x, fresh)
    return fresh


def kernels_agree(tmp_path, problem, evaluate: str, apply: str, rng, tour: bool = False) -> None:
    """The evaluation kernel's F equals the CPU evaluator's, one move a block; the apply kernel (4 threads, of
    which thread 0 moves the state) leaves the state that fill_state makes of the neighbor."""
    source = problem_source(problem_defines(problem, THREE, 1), problem, THREE)
    cpu, n_moves = prepare(problem, THREE, "cpu"), THREE.size(problem.n)
    data = list(problem.kernels.data())
    x = problem.random_solution(rng)
    now = [(s, "double2") if tour and s.dtype == np.float64 else s for s in state(problem, x)]
    F = np.zeros((n_moves, problem.n_obj), problem.dtype)
    first = [0] if problem.kernels.chunkable else []
    got = simulate(tmp_path, source, evaluate, [*data, *now, F, n_moves, *first], n_moves)
    want = cpu.evaluate(x)
    np.testing.assert_array_equal(got[len(data) + len(now)], want)
    t = int(rng.integers(n_moves))
    moved = simulate(tmp_path, source, apply, [*data, *now, np.array([t]), want[t].copy()], 1,
                     threads=1 if problem.name == "qap" else 4)  # QAP's block waits between its two exchanges
    for on_device, expected in zip(moved[len(data):], state(problem, THREE.apply(x, t))):
        np.testing.assert_array_equal(on_device, expected)


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
def test_decode_and_inverse_equal_numba(tmp_path):
    source = kernel_source({}, THREE.cuda_source(), (HERE / "decode_all.cu").read_text())
    for n in (3, 4, 9, 200, 6000):
        n_moves = THREE.size(n)
        ids = np.unique(np.r_[0:min(n_moves, 2000), np.linspace(0, n_moves - 1, 2000).astype(np.int64)])
        moves = simulate(tmp_path, source, "decode_all", [n, ids, len(ids), np.zeros(3 * len(ids), np.int32)],
                         len(ids))[1]
        np.testing.assert_array_equal(moves.reshape(-1, 3), THREE.moves(ids, n))
        inverse = simulate(tmp_path, source, "inverse_all", [n, ids, len(ids), np.zeros(len(ids), np.int64)],
                           len(ids))[1]
        np.testing.assert_array_equal(inverse, [THREE.inverse(int(t), n) for t in ids])


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
@pytest.mark.parametrize("n, k, symmetric, high", [(3, 1, True, 100), (4, 2, False, 100), (13, 2, True, 100),
                                                   (20, 1, False, 2**11)])
def test_qap_kernels_equal_numba(tmp_path, rng, n, k, symmetric, high):
    """cycle_delta in one lane per move (the lanes' shuffles need a GPU); high 2^11: int32 sums that wrap."""
    problem = qap(rng, n, k, symmetric, high)
    problem.kernels.tuned_move_threads = 1
    kernels_agree(tmp_path, problem, "qap_neighborhood", "qap_apply", rng)


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
@pytest.mark.parametrize("n, kind, k", [(3, "EUC_2D", 1), (4, "ATT", 1), (5, "EUC_2D", 2), (30, "ATT", 1)])
def test_tsp_kernels_equal_numba(tmp_path, rng, n, kind, k):
    kernels_agree(tmp_path, random_tsp(rng, n, kind, k=k), "tsp_3exchange", "tsp_3exchange_apply", rng, tour=True)


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
@pytest.mark.parametrize("n, m", [(3, 1), (9, 3), (20, 5)])
def test_flowshop_kernel_equals_numba(tmp_path, rng, n, m):
    """The six runs of nbh_segments walked by flowshop_neighborhood (its apply kernel's wavefront needs a warp)."""
    problem = Flowshop(random_instance(rng, n, m))
    source = problem_source(problem_defines(problem, THREE, 1), problem, THREE)
    x, n_moves = problem.random_solution(rng), THREE.size(n)
    F = np.zeros((n_moves, problem.n_obj), problem.dtype)
    got = simulate(tmp_path, source, "flowshop_neighborhood", [*problem.kernels.data(), *state(problem, x), F,
                                                                n_moves], n_moves)
    np.testing.assert_array_equal(got[-1], prepare(problem, THREE, "cpu").evaluate(x))
