"""The completion-time recursion in offset form (one add and one max a cell, a DPX instruction on Hopper): per-run
tables and per-solution state of the kernels (docs/internals.md has the recursion)."""

from __future__ import annotations

import numpy as np

from mols.jit import cached_njit


def cumulative_times(p_jobs: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Q (n + 1, m): prefix sums of each job's processing times over the machines, then a zero row."""
    q = np.zeros((p_jobs.shape[0] + 1, p_jobs.shape[1]), dtype=dtype)
    q[:-1] = np.cumsum(p_jobs, axis=1)
    return q


@cached_njit
def fill_state(q, due, perm, eext, pref_t, pref_u, dpi):
    """For the permutation `perm`:
    eext[k] (n + 1, m): offset values E of position k - 1 (eext[0] = 0, before any job);
    pref_t[k], pref_u[k]: total tardiness and number of tardy jobs of positions < k;
    dpi[r] (n, m): D[perm[r], perm[r + 1]] for r < n - 1 (the last row is unused).
    """
    n, m = q.shape[0] - 1, q.shape[1]
    eext[0, :] = 0
    pref_t[0] = 0
    pref_u[0] = 0
    dpi[n - 1, :] = 0
    d = np.empty(m, dtype=q.dtype)
    for k in range(n):
        b = perm[k]
        pair_row(q, perm[k - 1] if k > 0 else n, b, d)
        if k > 0:
            dpi[k - 1] = d
        late = add_max_row(eext[k], d, eext[k + 1]) + q[b, m - 1] - due[b]
        pref_t[k + 1] = pref_t[k] + max(late, 0)
        pref_u[k + 1] = pref_u[k] + (1 if late > 0 else 0)


@cached_njit
def pair_row(q, a, b, out):
    """out[i] = D[a, b][i] = Q[a][i] - Q[b][i-1]."""
    out[0] = q[a, 0]
    for i in range(1, q.shape[1]):
        out[i] = q[a, i] - q[b, i - 1]


@cached_njit
def add_max_row(e_prev, d, e):
    """One position of the recursion: e[i] = max(e[i-1], e_prev[i] + d[i]); returns e[m-1].
    `e` may be `e_prev` (each value is read before it is overwritten)."""
    left = e_prev[0] + d[0]
    e[0] = left
    for i in range(1, e.shape[0]):
        left = max(left, e_prev[i] + d[i])
        e[i] = left
    return left
