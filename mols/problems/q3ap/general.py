"""Q3AP instances in general form (Luong et al. 2010, eq. 4): a linear term b (n, n, n) and a dense 6-index cost C,
f(p, q) = sum_i b[i, p(i), q(i)] + sum_{i, t} C[i, p(i), q(i), t, p(t), q(t)]; the product form as one, and random ones."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, MolsError
from mols.memory import check_fits, host_array
from mols.problems.q3ap.instance import Q3apInstance

MAX_VALUE = int(np.iinfo(np.int32).max)  # entries are stored as int32, the kernels' cost type
COST = np.dtype(np.int32)
RANDOM = re.compile(r"random:([0-9]{1,4}):([0-9]{1,9})")  # random:N:SEED, a random general instance
RANDOM_HIGH = 100  # random costs and linear terms are drawn in 0..99
BLOCK_ENTRIES = 1 << 24  # entries of the cost matrix compared at a time (symmetric): bounded memory


def costs_nbytes(n: int) -> int:
    """Bytes of a general instance of size n: C (n^6 entries) and b (n^3), int32."""
    return (n ** 6 + n ** 3) * COST.itemsize


def costs_text(n: int) -> str:
    """The arrays of size n in words, for the messages about the memory they need."""
    return (f"the costs of a general Q3AP of size n = {n} (C: {n}^6 = {n ** 6:,} entries, b: {n ** 3:,}; "
            f"{costs_nbytes(n):,} bytes)")


def check_costs_fit(n: int, where: str) -> None:
    """MolsError naming `where` (the file or name) and the bytes unless an instance of size n fits in memory now."""
    check_fits(costs_nbytes(n), f"{where}: {costs_text(n)}")


@dataclass(frozen=True, eq=False, repr=False)
class Q3apGeneralInstance:
    """b (n, n, n) and C (n, n, n, n, n, n), int32 (values within +-MAX_VALUE), read-only: b[i, j, l] is the cost of
    position i holding p's value j and q's value l, C[i, j, l, t, k, m] that of the pair of positions (i, t)."""

    name: str
    b: np.ndarray
    c: np.ndarray
    path: Path | None = None

    def __post_init__(self) -> None:
        b, c = np.asarray(self.b), np.asarray(self.c)
        n = b.shape[0] if b.ndim == 3 else 0
        if n < 2 or b.shape != (n,) * 3 or c.shape != (n,) * 6:
            raise ValueError(f"need b of shape (n, n, n) and c of shape (n,) * 6 with n >= 2, got {b.shape} and "
                             f"{c.shape}")
        for attr, arr in (("b", b), ("c", c)):
            if not np.issubdtype(arr.dtype, np.integer):
                raise ValueError(f"{attr} must hold integers, got {arr.dtype}")
            if arr.size and max(int(arr.max()), -int(arr.min())) > MAX_VALUE:
                raise ValueError(f"{attr}: values must lie within +-{MAX_VALUE}")
            arr = np.ascontiguousarray(arr, dtype=COST)
            arr.setflags(write=False)
            object.__setattr__(self, attr, arr)

    @property
    def n(self) -> int:
        return int(self.b.shape[0])

    @property
    def matrix(self) -> np.ndarray:
        """C as the (n^3, n^3) matrix of triples (i, j, l) -> (i n + j) n + l, the kernels' view (no copy)."""
        return self.c.reshape(self.n ** 3, self.n ** 3)

    @cached_property
    def symmetric(self) -> bool:
        """C[i, j, l, t, k, m] = C[t, k, m, i, j, l] everywhere (each pair of positions then counts twice the same),
        compared a block of rows at a time."""
        m = self.matrix
        rows = max(1, BLOCK_ENTRIES // len(m))
        return all(np.array_equal(m[r:r + rows], m[:, r:r + rows].T) for r in range(0, len(m), rows))

    @cached_property
    def bound(self) -> int:
        """A bound on |f|: each position's largest |b|, and each pair of positions' largest |C|, summed."""
        total = int(np.abs(self.b.astype(np.int64)).max(axis=(1, 2)).sum())
        for i in range(self.n):  # one position's n^5 costs at a time: no copy of C
            hi, lo = self.c[i].max(axis=(0, 1, 3, 4)), self.c[i].min(axis=(0, 1, 3, 4))
            total += int(np.maximum(np.abs(hi.astype(np.int64)), np.abs(lo.astype(np.int64))).sum())
        return total

    def __repr__(self) -> str:
        return f"Q3apGeneralInstance(name={self.name!r}, n={self.n}, symmetric={self.symmetric})"


def from_product(instance: Q3apInstance) -> Q3apGeneralInstance:
    """The product form's instance in general form: C[i, j, l, t, k, m] = A[i, t] B[j, k] E[l, m], b = 0 (the same
    costs); MolsError where a product leaves int32 or the costs do not fit in memory."""
    n = instance.n
    reach = math.prod(int(np.abs(m).max()) for m in (instance.a, instance.b, instance.e))  # the largest |product|
    if reach > MAX_VALUE:
        raise MolsError(f"{instance.name}: products A[i,t] B[j,k] E[l,m] reach {reach:,}, beyond the +-{MAX_VALUE:,} "
                        "of the general form's int32 costs")
    c = host_array((n,) * 6, COST, f"{instance.name}: {costs_text(n)}")
    ab = instance.a[:, None, :, None] * instance.b[None, :, None, :]  # (i, j, t, k): n^4, then one pass over C
    np.multiply(ab[:, :, None, :, :, None], instance.e[None, None, :, None, None, :], out=c, casting="unsafe")
    return Q3apGeneralInstance(instance.name, np.zeros((n, n, n), COST), c, instance.path)


def random_general(n: int, seed: int, high: int = RANDOM_HIGH) -> Q3apGeneralInstance:
    """A random general instance: b and C drawn uniformly in 0..high-1 from `seed`, named random:N:SEED."""
    name = f"random:{n}:{seed}"
    if n < 2:
        raise InstanceError(name, f"a Q3AP needs n >= 2 positions, got {n}")
    check_costs_fit(n, name)
    rng = np.random.default_rng(seed)
    b = rng.integers(0, high, size=(n,) * 3, dtype=COST)
    c = rng.integers(0, high, size=(n,) * 6, dtype=COST)
    return Q3apGeneralInstance(name, b, c)


def random_name(text: str) -> tuple[int, int] | None:
    """(n, seed) of a name random:N:SEED, else None."""
    match = RANDOM.fullmatch(text)
    return (int(match.group(1)), int(match.group(2))) if match else None
