"""The optional parts of mols (pip extras) and a clear error where one is missing."""

from __future__ import annotations

from importlib.util import find_spec

from mols.errors import MolsError

EXTRAS = {"dask": ("dask", "distributed"), "gpu": ("cupy",)}  # extra -> the modules it installs


def need(extra: str, what: str) -> None:
    """MolsError naming the extra to install, unless every module of `extra` can be imported."""
    missing = [module for module in EXTRAS[extra] if find_spec(module) is None]
    if missing:
        raise MolsError(f"{what} needs the {extra} extra ({', '.join(missing)} is not installed): "
                        f"pip install 'mols[{extra}]'")
