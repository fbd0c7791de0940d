"""Weierstrass instances by name: a dimension D (1..1000) and the arithmetic, `10`, `10:float32` or
`10:float64` (the default); and the table `mols instances -p weierstrass` shows."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mols.errors import MolsError, excerpt
from mols.problems.io import whole_number

MAX_DIMENSION = 1000
PRECISIONS = ("float64", "float32")
# The minimum of one coordinate's W (b = 2, h = 0.25, 100 terms) on [-1, 1], near -2 pi / 15: a numerical
# estimate, good to about 1e-4 (instances/weierstrass/SOURCE.md). The separable sum's minimum is n times it.
MINIMUM_PER_COORDINATE = -2.81562
TABLE_DIMENSIONS = range(1, 11)  # the paper's Table 5
_NAME = re.compile(r"([0-9]+)(?::(float32|float64))?")


@dataclass(frozen=True)
class WeierstrassInstance:
    dimension: int
    precision: str = "float64"

    def __post_init__(self) -> None:
        if not 1 <= self.dimension <= MAX_DIMENSION or self.precision not in PRECISIONS:
            raise ValueError(f"need a dimension in 1..{MAX_DIMENSION} and a precision in {PRECISIONS}, got "
                             f"{self.dimension} and {self.precision!r}")

    @property
    def name(self) -> str:
        """e.g. d10, or d10-f32 in float32 arithmetic."""
        return f"d{self.dimension}" + ("-f32" if self.precision == "float32" else "")

    @property
    def known_minimum(self) -> float:
        """The estimated global minimum (float64 arithmetic): n times the one-coordinate minimum."""
        return MINIMUM_PER_COORDINATE * self.dimension


def parse_instance(text: str) -> WeierstrassInstance:
    """`D` or `D:PRECISION`; MolsError naming the instance otherwise."""
    match = _NAME.fullmatch(text.strip())
    dimension = whole_number(match.group(1), MAX_DIMENSION) if match else None
    if not dimension:  # None or 0
        raise MolsError(f"weierstrass instance {excerpt(text)}: expected a dimension 1..{MAX_DIMENSION}, optionally "
                        f"followed by :float32 or :float64 (the default), such as 10 or 10:float32")
    return WeierstrassInstance(dimension, match.group(2) or "float64")


def known_value(text: str) -> float:
    """The known minimum of the instance `D` or `D:PRECISION` (parse_instance's)."""
    return parse_instance(text).known_minimum


def instance_table() -> tuple[str, list[str], list[list]]:
    """The paper's dimensions and their known minimum (title, columns, rows), for `mols instances`."""
    title = ("weierstrass instances (-p weierstrass): any dimension 1..1000, such as 10 or 10:float32 (float32 "
             "arithmetic); no file needed")
    rows = [[str(d), d, f"{WeierstrassInstance(d).known_minimum:.5f}"] for d in TABLE_DIMENSIONS]
    return title, ["name", "dimension", "known minimum (float64, ~1e-4 n)"], rows
