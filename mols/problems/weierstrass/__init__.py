"""The Weierstrass function with the crowns neighborhood (Luong, Melab and Talbi 2013, section 6.3)."""

from __future__ import annotations

from mols.problems.weierstrass.instance import WeierstrassInstance, instance_table, parse_instance
from mols.problems.weierstrass.model import Weierstrass


def load_weierstrass(instance: str) -> Weierstrass:
    """The problem of dimension D from `D`, `D:float32` or `D:float64` (float64 by default)."""
    return Weierstrass(parse_instance(instance))


__all__ = ["Weierstrass", "WeierstrassInstance", "instance_table", "load_weierstrass", "parse_instance"]
