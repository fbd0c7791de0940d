"""The CUDA twins against the host, exactly: the change neighborhood's header (ids, moves, inverses),
the coloring kernel's F (integer conflicts), and a whole tabu run on both backends."""

from __future__ import annotations

import numpy as np
import pytest

import mols
from mols.backends import prepare
from mols.backends.cuda import compile_kernel, import_cupy, kernel_source
from mols.neighborhoods.base import HERE
from mols.neighborhoods.change import value_changes
from mols.problems.coloring import load_coloring

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("n, k", [(1, 2), (7, 3), (47, 6), (1000, 17)])
def test_the_cuda_header_decodes_and_inverts_like_the_host(n, k):
    """Every id of the neighborhood."""
    cupy = import_cupy()
    nbh = value_changes(k)
    ids = np.arange(nbh.n_neighbors(n), dtype=np.int64)
    args, grid = (np.int32(n), cupy.asarray(ids), np.int64(len(ids))), (-(-len(ids) // 256),)
    source = kernel_source({}, nbh.cuda_source(), (HERE / "decode_all.cu").read_text())
    moves = cupy.full((len(ids), 2), -1, dtype=cupy.int32)
    compile_kernel(source, "decode_all")(grid, (256,), (*args, moves))
    np.testing.assert_array_equal(moves.get(), nbh.moves(ids, n))
    inverse = cupy.full(len(ids), -1, dtype=cupy.int64)
    compile_kernel(source, "inverse_all")(grid, (256,), (*args, inverse))
    np.testing.assert_array_equal(inverse.get(), [nbh.inverse(int(t), n) for t in ids])


@pytest.mark.parametrize("instance", ["myciel3", "queen5_5:3", "myciel5", "queen6_6"])
def test_gpu_equals_cpu(rng, instance):
    """Random solutions and a walk of moves through the same buffers; on queen6_6 (7 colors) and
    myciel5 the last block of threads is partly past the end."""
    problem = load_coloring(instance)
    nbh = problem.neighborhood("change")
    cpu, gpu = prepare(problem, nbh, "cpu"), prepare(problem, nbh, "gpu")
    x = problem.random_solution(rng)
    for step in range(6):
        F = gpu.evaluate(x)
        assert F.dtype == problem.dtype
        np.testing.assert_array_equal(F, cpu.evaluate(x))
        x = problem.random_solution(rng) if step == 2 else nbh.apply(x, int(rng.integers(len(F))))


@pytest.mark.parametrize("instance, iterations, reached", [("queen5_5", 60, True), ("myciel5:5", 40, False)])
def test_a_tabu_run_is_the_same_on_both_backends(instance, iterations, reached):
    """queen5_5 reaches a proper coloring (seed 1, at iteration 57 on the CPU); myciel5 with 5 colors, fewer
    than its chromatic number, cannot: the run uses its whole budget."""
    problem = load_coloring(instance)
    runs = [mols.solve(problem, neighborhood="change", algorithm="tabu", iterations=iterations, seed=1,
                       backend=backend) for backend in ("cpu", "gpu")]
    assert [run.status for run in runs] == ["completed", "completed"]
    assert [run.reached is not None for run in runs] == [reached, reached]
    assert runs[0].iterations == runs[1].iterations
    np.testing.assert_array_equal(runs[0].archive.F, runs[1].archive.F)
    np.testing.assert_array_equal(runs[0].archive.X, runs[1].archive.X)
