"""The ILS-3opt CUDA source, checked without a GPU: it compiles with nvcc --ptx (where nvcc is installed), and its
kernels, compiled as C++ with a block as threads at a barrier (cuda_sim/, ThreadSanitizer where g++ has it),
give exactly the Numba reference's tours: the same launches as algorithms/ils3opt/gpu.py, every strategy."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mols.algorithms.ils3opt.gpu import KERNELS, fi_block_shape, ils3opt_source, launch_bounds, shared_bytes
from mols.algorithms.ils3opt.population import max_segment, start_tours
from mols.algorithms.ils3opt.search import make_population
from mols.algorithms.ils3opt.three_opt import candidate_table
from mols.problems.tsp import load_tsp
from mols.problems.tsp.candidates import candidate_lists
from mols.problems.tsp.model import tour_lengths

NVCC, GXX = shutil.which("nvcc"), shutil.which("g++")
SIM = Path(__file__).with_name("cuda_sim")
STRATEGIES = {"fi-thread": 0, "fi-block": 1, "fi-block-shared": 2, "rkbi": 3}
SEED, P, SAMPLES = 5, 2, 60


@pytest.mark.skipif(NVCC is None, reason="nvcc not installed")
@pytest.mark.parametrize("n, k, seg, att", [(3038, 40, 50, False)])
@pytest.mark.parametrize("pairs, bounds", [(True, (128, 4)), (False, (32, 32)), (False, None)])
@pytest.mark.parametrize("oropt", [False, True])
def test_source_compiles_to_ptx(tmp_path, n, k, seg, att, pairs, bounds, oropt):
    source = tmp_path / "ils3opt.cu"
    source.write_text(ils3opt_source(n, k, seg, att, pairs, merged=oropt, bounds=bounds, oropt=oropt))
    ptx = tmp_path / "ils3opt.ptx"
    done = subprocess.run([NVCC, "--ptx", "-std=c++17", "-arch=sm_80", str(source), "-o", str(ptx)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    text = ptx.read_text()
    for name in [*KERNELS.values(), "ils_rkbi_prepare", "ils_rkbi_sample", "ils_rkbi_apply", "ils_rkbi_accept",
                 "ils_merge_apply", "ils_merge_broadcast"]:
        assert f".entry {name}(" in text


H200 = {"multiProcessorCount": 132, "maxBlocksPerMultiProcessor": 32, "sharedMemPerMultiprocessor": 233472,
        "regsPerMultiprocessor": 65536}


@pytest.mark.parametrize("P, pairs, n, shape", [
    (256, True, 0, (128, 2)), (528, True, 0, (128, 4)), (600, False, 0, (64, 5)), (2048, False, 0, (32, 16)),
    (4096, False, 0, (32, 32)), (1 << 20, False, 0, (32, 32)), (2048, False, 783, (32, 16)),
    (4096, False, 783, (32, 16)), (2048, False, 1577, (64, 8)), (2048, False, 3038, (64, 4)),
    (4096, False, 3038, (64, 5)), (1, False, 3038, (64, 1))])
def test_fi_block_shape(P, pairs, n, shape):
    """fi-block's threads a block and blocks a multiprocessor (its __launch_bounds__): a block a solution, in the
    fewest waves, each multiprocessor holding as few blocks as that takes; at most 4 over the triples, 32 on the
    H200 or what fi-block-shared's tours (n > 0) leave; by candidate a warp a block, two where that takes as many
    waves and at most 10 blocks."""
    assert fi_block_shape(P, pairs, shared_bytes(n) if n else 0, H200) == shape


@pytest.mark.parametrize("name", ["random:300:2", "att48"])
def test_candidate_table_holds_each_candidate_and_its_distance(name):
    """The local searches' lists (three_opt.candidate_table): each candidate in list order, beside its TSPLIB
    distance from the list's city (the model's NumPy reference, EUC_2D or ATT)."""
    from mols.problems.tsp.model import distance_matrix

    problem = load_tsp(name) if name != "att48" else att_instance()
    xy = problem.xy[0]
    cand = candidate_lists(xy, 12, quadrant=True)
    table = candidate_table(xy, cand, problem.att)
    assert table.shape == (problem.n, 12, 2) and table.dtype == np.int32
    assert (table[..., 0] == cand).all()
    assert (table[..., 1] == distance_matrix(xy, problem.att)[np.arange(problem.n)[:, None], cand]).all()


def test_launch_bounds_only_where_they_cap_registers():
    assert launch_bounds(128, 2, H200) is None and launch_bounds(64, 4, H200) is None
    assert launch_bounds(32, 16, H200) == (32, 16) and launch_bounds(128, 4, H200) == (128, 4)


@pytest.fixture(scope="module", params=["random:80:3", "att48", "random:80:3 shuffled", "random:80:3 by-candidate"])
def simulator(request, tmp_path_factory):
    """The instance's arrays in files and the kernels compiled as C++ threads: (folder, problem, cand, tours).
    Shuffled: each candidate list in a random order, so that the partial gains along a list no longer only fall
    and the scans stop at the first non-positive one with positive ones after it (fi-block's stops). By-candidate:
    fi-block's search with a thread per candidate t3 (PAIRS 0, exact on sorted lists; the others: over the
    triples)."""
    return build_simulator(tmp_path_factory.mktemp("sim"), request.param)


def build_simulator(folder, param, merged=False, oropt=False):
    if GXX is None:
        pytest.skip("g++ not installed")
    name, shuffled = param.split()[0], "shuffled" in param
    problem = load_tsp(name) if name != "att48" else att_instance()
    xy, n = problem.xy[0], problem.n
    cand = candidate_lists(xy)
    if shuffled:
        cand = np.ascontiguousarray(np.random.default_rng(7).permuted(cand, axis=1))
    tours = np.empty((P, n), np.int32)
    start_tours(xy, cand, np.uint64(SEED), tours)
    source = ils3opt_source(n, cand.shape[1], max_segment(n), problem.att, "by-candidate" not in param, merged,
                            oropt=oropt)
    source = "#define RKBI_THREADS 16\n" + source.replace("extern __shared__ int smem[];", "int* smem = g_smem;")
    (folder / "ils_sim.cu").write_text(source)
    for name in ("shim.h", "main.cpp"):
        shutil.copy(SIM / name, folder / name)
    xy.astype(np.float64).tofile(folder / "xy.bin")
    candidate_table(xy, cand, problem.att).tofile(folder / "cand.bin")
    tours.tofile(folder / "tours.bin")
    tour_lengths(xy, tours, problem.att).astype(np.int64).tofile(folder / "lengths.bin")
    base = [GXX, "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "main.cpp", "-o", "sim"]
    done = subprocess.run([*base, "-fsanitize=thread"], cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # no ThreadSanitizer here: the same check without it
        done = subprocess.run(base, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0 and "barrier" in done.stderr:
        pytest.skip("g++ without C++20 <barrier>")
    assert done.returncode == 0, done.stderr[-3000:]
    return folder, problem, cand, tours


def att_instance():
    """48 cities under TSPLIB's ATT distances (the rounding rule of the other branch of tsp_distance)."""
    from mols.problems.tsp.instance import TspInstance
    from mols.problems.tsp.model import Tsp

    xy = np.random.default_rng(48).integers(0, 8000, size=(48, 2)).astype(np.float64)
    return Tsp(TspInstance("att48r", xy, "ATT"))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_kernels_as_threads_equal_numba(simulator, strategy):
    chunks = [0, 1, 3] if strategy == "rkbi" else [0, 1, 3, 12]
    assert_simulation_equals_numba(simulator, strategy, chunks)


@pytest.mark.parametrize("strategy", ["fi-thread", "fi-block", "fi-block-shared"])
def test_merged_rounds_as_threads_equal_numba(tmp_path, strategy):
    """Merged rounds' iterations (ils_merge: double bridges in each solution's window, the spans of the kept
    changes) on 240 cities, rounds of 4 and 8 iterations: the same tours, lengths and spans as Numba's."""
    from mols.algorithms.ils3opt.merge import merge_window

    sim = build_simulator(tmp_path, "random:240:4", merged=True)
    window = merge_window(240, max_segment(240))
    spans = assert_simulation_equals_numba(sim, strategy, [0, 1, 5, 13], window)
    assert (spans[:, 0] <= spans[:, 1]).any()  # some solution kept a changed tour


@pytest.mark.parametrize("param", ["random:240:4", "random:240:4 shuffled", "random:240:4 by-candidate"])
@pytest.mark.parametrize("strategy", ["fi-thread", "fi-block", "fi-block-shared"])
def test_or3opt_kernels_as_threads_equal_numba(tmp_path, param, strategy):
    """or3opt's kernels (OROPT: Or-opt moves where 3-opt finds none) in every team shape, in plain and merged
    rounds: the same tours, lengths and spans as cpu-or3opt's."""
    from mols.algorithms.ils3opt.merge import merge_window

    for merged in (False, True):
        folder = tmp_path / f"merged{int(merged)}"
        folder.mkdir()
        sim = build_simulator(folder, param, merged, oropt=True)
        window = merge_window(240, max_segment(240)) if merged else 0
        assert_simulation_equals_numba(sim, strategy, [0, 1, 5, 13], window, "cpu-or3opt")


def assert_simulation_equals_numba(simulator, strategy, chunks, window=0, twin=None):
    folder, problem, cand, tours = simulator
    xy, n, att = problem.xy[0], problem.n, problem.att
    twin = twin or ("cpu-rkbi" if strategy == "rkbi" else "cpu")
    cpu = make_population(twin, xy, cand, SEED, tours.copy(), tour_lengths(xy, tours, att), max_segment(n), att,
                          SAMPLES)
    for a, b in itertools.pairwise(chunks):
        cpu.run(a, b, window if a else 0)
    done = subprocess.run(["./sim", str(P), str(STRATEGIES[strategy]), str(SEED), str(SAMPLES), str(window),
                           *map(str, chunks)], cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]  # ThreadSanitizer fails the run on a data race
    np.testing.assert_array_equal(np.fromfile(folder / "out_lengths.bin", np.int64), cpu.best_lengths())
    np.testing.assert_array_equal(np.fromfile(folder / "out_bests.bin", np.int32).reshape(P, n), cpu.bests)
    spans = np.fromfile(folder / "out_spans.bin", np.int32).reshape(P, 2)
    np.testing.assert_array_equal(spans, cpu.spans)
    return spans
