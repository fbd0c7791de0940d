"""Tabu search's weight vectors and the coefficients of its score: the weights over the objectives' ranges."""

from __future__ import annotations

import itertools

import numpy as np

from mols.errors import OptionError


def simplex_lattice(k: int, partitions: int) -> np.ndarray:
    """All weight vectors (W, k) with entries in {0, 1/p, ..., 1} summing to 1 (Das and Dennis)."""
    rows = [c for c in itertools.product(range(partitions + 1), repeat=k) if sum(c) == partitions]
    return np.array(sorted(rows, reverse=True), dtype=np.float64) / partitions


def check_weights(weights, k: int) -> np.ndarray:
    w = np.atleast_1d(np.asarray(weights, dtype=np.float64))
    if w.shape != (k,) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise OptionError("weights", f": expected {k} non-negative numbers, not all zero; got {w.tolist()}")
    return w / w.sum()


def normalising_coefficients(w: np.ndarray, lo: np.ndarray, hi: np.ndarray, f: np.ndarray) -> np.ndarray:
    """c_o = w_o / r_o, r_o the range of objective o over f and its neighborhood's bounds lo and hi
    (Evaluator.neighborhood_bounds), in float64; 1 where it is 0. Each argument (k,), or rows (B, k) of them."""
    f = np.asarray(f, dtype=np.float64)
    ranges = np.maximum(hi, f) - np.minimum(lo, f)
    return w / np.where(ranges > 0, ranges, 1.0)
