"""The permuted perceptron problem (PPP): generated instances with a planted solution, the text format,
the model (Knudsen and Meier's cost, target 0), and Hamming-1, 2, 3 kernels (Numba and CUDA)."""

from __future__ import annotations

from mols.neighborhoods import get_neighborhood
from mols.problems.ppp.instance import (
    DEFAULT_SEED,
    PAPER_SIZES,
    PppInstance,
    generate,
    load_instance,
    read_ppp,
    write_ppp,
)
from mols.problems.ppp.model import Ppp


def load_ppp(instance: str) -> Ppp:
    """The PPP on `instance`: a size M-N (generated with seed 1), M-N-sSEED, or a path to a file."""
    return Ppp(load_instance(instance))


def instance_table() -> tuple[str, list[str], list[list]]:
    """The papers' sizes, generated on demand: (title, columns, rows), for `mols instances`."""
    rows = []
    for name in PAPER_SIZES:
        m, n = map(int, name.split("-"))
        rows.append([name, m, n, DEFAULT_SEED, *(get_neighborhood(f"hamming{k}").n_neighbors(n) for k in (1, 2, 3))])
    title = (f"ppp instances (-p ppp): any size M-N is generated in memory with seed {DEFAULT_SEED} (M-N-sSEED: "
             "another seed; a path: a file, format in instances/ppp/SOURCE.md); the papers' sizes")
    return (title, ["name", "m (rows)", "n (bits)", "seed", "hamming1", "hamming2", "hamming3"], rows)


__all__ = ["Ppp", "PppInstance", "generate", "instance_table", "load_ppp", "read_ppp", "write_ppp"]
