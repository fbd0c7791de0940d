"""Best admissible neighbor by weighted score, the host twin of select.cu: scores summed in float64 in a fixed order
without fused multiply-add, so both backends get the same bits; admissible: not tabu, or below the aspiration
threshold; ties to the lowest id (docs/internals.md)."""

from __future__ import annotations

import numpy as np
from numba import prange

from mols.jit import THREADS, cached_njit

# Tabu memory (forbidden_until, one entry per neighbor): the step from which a neighbor is admissible again,
# in 32 bits (half the memory of int64: 450 MB for 2-opt on 15,000 cities); so a tabu run's steps plus its
# tenure stay below MAX_TABU_STEP (AggregatedTabu checks).
TABU_DTYPE = np.dtype(np.int32)
MAX_TABU_STEP = int(np.iinfo(TABU_DTYPE).max)


@cached_njit
def best_admissible(F, c, forbidden_until, step, threshold):
    """(id, score) of the best admissible row of F (N, k); see the module docstring."""
    return chosen(*best_pairs(F, c, forbidden_until, step, threshold))


@cached_njit
def chosen(best_id, best, any_id, any_best):
    """(id, score): the best admissible pair, or where there is none (best_id -1) the best pair."""
    if best_id < 0:
        return any_id, any_best
    return best_id, best


def choose_on_host(F: np.ndarray, c, forbidden_until: np.ndarray, step: int, threshold: float):
    """(id, score, a copy of its row of F) of best_admissible's choice."""
    idx, score = best_admissible(F, np.asarray(c, dtype=np.float64), forbidden_until, step, threshold)
    return int(idx), float(score), F[idx].copy()


@cached_njit
def row_score(F, c, t):
    """c . F[t], summed in float64 in the objectives' order (select.cu's: the backends' same bits)."""
    s = 0.0
    for o in range(F.shape[1]):
        s = s + c[o] * F[t, o]
    return s


@cached_njit
def best_pairs(F, c, forbidden_until, step, threshold):
    """(id, score) of the best admissible row of F (-1, inf if none) and (id, score) of the best row;
    a chunk's share of the selection, which the chunks' results combine into."""
    best, best_id = np.inf, -1
    any_best, any_id = np.inf, -1
    for t in range(F.shape[0]):
        s = row_score(F, c, t)
        if s < any_best:
            any_best, any_id = s, t
        if s < best and (forbidden_until[t] <= step or s < threshold):
            best, best_id = s, t
    return best_id, best, any_id, any_best


@cached_njit(parallel=True)
def best_pairs_parallel(F, c, forbidden_until, step, threshold):
    """best_pairs over equal shares of the rows on the threads, combined in row order (so ties still go
    to the lowest id)."""
    n_threads, rows = THREADS, F.shape[0]
    share = (rows + n_threads - 1) // n_threads
    part_i = np.full((n_threads, 2), -1, dtype=np.int64)
    part_s = np.full((n_threads, 2), np.inf)
    for t in prange(n_threads):
        lo, hi = t * share, min(rows, (t + 1) * share)
        if lo < hi:
            b, bs, a, as_ = best_pairs(F[lo:hi], c, forbidden_until[lo:hi], step, threshold)
            part_i[t, 0], part_s[t, 0] = (lo + b if b >= 0 else -1), bs
            part_i[t, 1], part_s[t, 1] = lo + a, as_
    return combine_pairs(part_i, part_s)


@cached_njit
def combine_pairs(part_i, part_s):
    """best_pairs' result over shares of the rows in row order, from each share's pairs (part_i, part_s (T, 2): its
    best admissible and its best; ids -1, or any id with an infinite score, where it has none): the first share's
    pair of the lowest score wins, so ties still go to the lowest id."""
    best, best_id, any_best, any_id = np.inf, -1, np.inf, -1
    for t in range(part_i.shape[0]):
        if part_i[t, 0] >= 0 and part_s[t, 0] < best:
            best, best_id = part_s[t, 0], part_i[t, 0]
        if part_i[t, 1] >= 0 and part_s[t, 1] < any_best:
            any_best, any_id = part_s[t, 1], part_i[t, 1]
    return best_id, best, any_id, any_best


def weighted_scores(F: np.ndarray, c: np.ndarray) -> np.ndarray:
    """All scores (N,), in the same order of operations as best_admissible: c (k,), or a row of it per row of
    F (N, k)."""
    s = np.zeros(F.shape[0])
    for o in range(F.shape[1]):
        s = s + c[..., o] * F[:, o]
    return s


def still_tabu(forbidden_until: np.ndarray, step: int) -> np.ndarray:
    """The tabu memory at `step` (steps.Position.tabu): the ids forbidden_until holds tabu there, and for how many
    steps more."""
    ids = np.flatnonzero(forbidden_until > step)
    return np.stack([ids, forbidden_until[ids].astype(np.int64) - step])
