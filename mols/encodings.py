"""Solution kinds (Permutation, BinaryVector, IntegerVector, RealVector, Permutations): every solution is a flat
NumPy array of `size` values of `dtype`; an encoding makes random solutions, checks, perturbs, reads and writes
them (front.csv's `solution` column, `--solution`)."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from mols.errors import MolsError, excerpt


class Encoding(ABC):
    name: str
    dtype: np.dtype
    size: int  # values in a solution

    def random(self, rng: np.random.Generator) -> np.ndarray:
        """A random solution, drawn from rng."""
        return self._random(rng).astype(self.dtype)

    @abstractmethod
    def _random(self, rng: np.random.Generator) -> np.ndarray: ...

    @abstractmethod
    def initial(self) -> np.ndarray:
        """A fixed valid solution (the warm-up evaluates it before the clock starts)."""

    def check(self, x, what: str = "solution") -> np.ndarray:
        """x as a solution of this kind (a new array of dtype), else a MolsError naming `what`."""
        arr = np.asarray(x)
        if arr.shape != (self.size,) or not self._valid(arr):
            raise MolsError(f"{what} must be {self.describe()}, got {arr.ravel()[:12].tolist()}")
        return arr.astype(self.dtype)

    @abstractmethod
    def _valid(self, arr: np.ndarray) -> bool: ...

    @abstractmethod
    def describe(self) -> str:
        """What a solution is, in words, for error messages."""

    @abstractmethod
    def perturb(self, x: np.ndarray, rng: np.random.Generator, strength: int) -> np.ndarray:
        """x after `strength` random changes (iterated local search), as a new array."""

    def format(self, x: np.ndarray) -> str:
        """x as text: values separated by spaces."""
        return " ".join(map(str, x.tolist()))

    def parse(self, text: str, what: str = "solution") -> np.ndarray:
        """The solution written as text (spaces or commas between values), checked."""
        try:
            values = [self._value(tok) for tok in text.replace(",", " ").split()]
        except ValueError:
            raise MolsError(f"{what}: expected {self.describe()}, got {excerpt(text)}") from None
        return self.check(values, what)

    def _value(self, token: str):
        return int(token)


class Permutation(Encoding):
    name = "permutation"
    dtype = np.dtype(np.int32)

    def __init__(self, n: int):
        self.n = self.size = n

    def _random(self, rng):
        return rng.permutation(self.n)

    def initial(self):
        return np.arange(self.n, dtype=self.dtype)

    def _valid(self, arr):
        return np.issubdtype(arr.dtype, np.integer) and np.array_equal(np.sort(arr), np.arange(self.n))

    def describe(self):
        return f"a permutation of 0..{self.n - 1} ({self.n} distinct integers)"

    def perturb(self, x, rng, strength):
        """`strength` swaps of two random positions, drawn at once: rng.choice per swap was a large share of a GPU
        batch of ITS searches, whose perturbations run on the host between rounds (reports/multistart/)."""
        y = x.copy()
        first = rng.integers(0, len(y), strength)
        second = rng.integers(0, len(y) - 1, strength)
        second += second >= first  # uniform over the other positions
        for i, j in zip(first.tolist(), second.tolist()):
            y[i], y[j] = y[j], y[i]
        return y


class BinaryVector(Encoding):
    name = "binary"
    dtype = np.dtype(np.int8)

    def __init__(self, n: int):
        self.n = self.size = n

    def _random(self, rng):
        return rng.integers(0, 2, self.n)

    def initial(self):
        return np.zeros(self.n, dtype=self.dtype)

    def _valid(self, arr):
        return np.issubdtype(arr.dtype, np.integer) and bool(np.isin(arr, (0, 1)).all())

    def describe(self):
        return f"{self.n} bits (0 or 1)"

    def perturb(self, x, rng, strength):
        """`strength` distinct random bits flipped."""
        y = x.copy()
        flip = rng.choice(self.n, size=min(strength, self.n), replace=False)
        y[flip] ^= 1
        return y


class IntegerVector(Encoding):
    name = "integer"
    dtype = np.dtype(np.int32)

    def __init__(self, n: int, k: int):
        self.n = self.size = n
        self.k = k

    def _random(self, rng):
        return rng.integers(0, self.k, self.n)

    def initial(self):
        return np.zeros(self.n, dtype=self.dtype)

    def _valid(self, arr):
        return np.issubdtype(arr.dtype, np.integer) and bool(((arr >= 0) & (arr < self.k)).all())

    def describe(self):
        return f"{self.n} integers in 0..{self.k - 1}"

    def perturb(self, x, rng, strength):
        """`strength` distinct random variables set to another of their values."""
        y = x.copy()
        for i in rng.choice(self.n, size=min(strength, self.n), replace=False):
            y[i] = (y[i] + rng.integers(1, self.k)) % self.k
        return y


class RealVector(Encoding):
    name = "real"
    dtype = np.dtype(np.float64)

    def __init__(self, n: int, low: float, high: float):
        self.n = self.size = n
        self.low, self.high = float(low), float(high)

    def _random(self, rng):
        return rng.uniform(self.low, self.high, self.n)

    def initial(self):
        return np.full(self.n, (self.low + self.high) / 2, dtype=self.dtype)

    def _valid(self, arr):
        return np.issubdtype(arr.dtype, np.number) and bool(((arr >= self.low) & (arr <= self.high)).all())

    def describe(self):
        return f"{self.n} reals in [{self.low:g}, {self.high:g}]"

    def perturb(self, x, rng, strength):
        """`strength` distinct random coordinates drawn again, uniformly in the box."""
        y = x.copy()
        y[rng.choice(self.n, size=min(strength, self.n), replace=False)] = rng.uniform(self.low, self.high,
                                                                                        min(strength, self.n))
        return y

    def format(self, x):
        return " ".join(repr(float(v)) for v in x)

    def _value(self, token):
        return float(token)


class Permutations(Encoding):
    """`parts` permutations of 0..n-1 stored one after the other: x[p n : (p + 1) n] is permutation p."""

    name = "permutations"
    dtype = np.dtype(np.int32)

    def __init__(self, parts: int, n: int):
        self.parts, self.n = parts, n
        self.size = parts * n
        self.one = Permutation(n)

    def _random(self, rng):
        return np.concatenate([self.one.random(rng) for _ in range(self.parts)])

    def initial(self):
        return np.tile(self.one.initial(), self.parts)

    def _valid(self, arr):
        return all(self.one._valid(part) for part in arr.reshape(self.parts, self.n))

    def describe(self):
        return f"{self.parts} permutations of 0..{self.n - 1}, one after the other"

    def perturb(self, x, rng, strength):
        """`strength` swaps, each in a random one of the permutations."""
        y = x.copy().reshape(self.parts, self.n)
        for _ in range(strength):
            p = rng.integers(self.parts)
            y[p] = self.one.perturb(y[p], rng, 1)
        return y.ravel()

    def format(self, x):
        return " | ".join(self.one.format(part) for part in x.reshape(self.parts, self.n))

    def parse(self, text, what="solution"):
        return super().parse(text.replace("|", " "), what)
