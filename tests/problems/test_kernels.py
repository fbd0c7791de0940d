"""The kernel set of a problem (problems/kernels.py): made once per problem and bound to it, copied with it, and
declaring what its kernels can do."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest

import mols
from mols.encodings import BinaryVector
from mols.errors import MolsError
from mols.neighborhoods import get_neighborhood
from mols.problems import PROBLEMS, load_problem
from mols.problems.qap.kernels import QapKernels

SMALL = {"flowshop": "020_05_01", "tsp": "kroA100", "bitsp": "kroAB100", "qap": "tai12a", "mqap": "KC10-2fl-1uni",
         "q3ap": "nug12", "ppp": "73-73", "coloring": "myciel3", "weierstrass": "8"}


class OnesKernels(mols.KernelSet):
    """Kernels for the host only: no CUDA source."""

    def data(self):
        return ()

    def state_layout(self):
        return [((self.problem.n,), np.dtype(np.int8))]

    def fill_state(self, x, state):
        state[0][:] = x

    def cpu_kernel(self, nbh, incremental=True):
        raise AssertionError("not evaluated here")


class Ones(mols.Problem):
    name, objectives, dtype, kernel_set = "ones", ("zeros",), np.dtype(np.int32), OnesKernels

    def __init__(self, n: int):
        self.n, self.encoding, self.instance = n, BinaryVector(n), SimpleNamespace(name=f"ones{n}")

    def _evaluate(self, X):
        return (X == 0).sum(axis=1)[:, None]


def test_every_problem_has_a_kernel_set_bound_to_it_made_once():
    assert set(SMALL) == set(PROBLEMS)
    for name, instance in SMALL.items():
        problem = load_problem(name, instance)
        kernels = problem.kernels
        assert isinstance(kernels, mols.KernelSet) and kernels.problem is problem and problem.kernels is kernels
        for nbh in problem.neighborhoods:
            assert kernels.move_threads(problem.neighborhood(nbh)) >= 1


def test_a_problem_without_cuda_kernels_says_so_and_names_the_cpu_backend():
    with pytest.raises(MolsError, match="the ones problem has no CUDA kernel; use the cpu backend"):
        Ones(4).kernels.cuda_source(get_neighborhood("hamming1"))
    assert Ones(4).kernels.shared_memory_refused(get_neighborhood("hamming1")) is not None


def test_a_copy_has_its_own_kernel_set_with_what_was_set_on_the_original():
    """The GPU backend copies a problem to try other threads per move: the copy's kernels read the copy."""
    qap = load_problem("qap", "tai12a")
    qap.kernels.tuned_move_threads = 2
    tuned = copy.copy(qap)
    assert isinstance(tuned.kernels, QapKernels) and tuned.kernels is not qap.kernels
    assert tuned.kernels.problem is tuned and tuned.kernels.threads_per_move == 2
    tuned.kernels.tuned_move_threads = 4
    assert qap.kernels.threads_per_move == 2 and tuned.kernels.cuda_defines()["LANES"] == 4


def test_the_projected_flowshop_kernels_write_the_columns_chosen():
    full = load_problem("flowshop", "020_05_01")
    projected = full.with_objectives(["n_tardy", "makespan"])
    assert projected.kernels is not full.kernels and projected.kernels.output_columns() == (1, -1, 0)
    assert full.kernels.output_columns() == (0, 1, 2)


def test_the_capabilities_are_declared_per_neighborhood():
    tsp, ppp = load_problem("tsp", "kroA100"), load_problem("ppp", "73-73")
    assert dict(tsp.kernels.apply_kernels) == {"swap": "tsp_swap_apply", "2opt": "tsp_2opt_apply",
                                               "3exchange": "tsp_3exchange_apply"}
    assert dict(ppp.kernels.prepare_kernels) == {"hamming2": ("ppp_pack", ppp.kernels.SORTED.size)}
    assert not ppp.kernels.apply_kernels and not load_problem("coloring", "myciel3").kernels.selection_kernels
    assert load_problem("q3ap", "nug12").defaults(get_neighborhood("basic")).tenure == 12 * 11 // 4
    assert tsp.defaults(get_neighborhood("2opt")).tenure is None
