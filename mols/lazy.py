"""Package attributes imported on first use, so that `import mols` and `mols --help` load no numerical library."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_exports(package: str, where: dict[str, str | Callable[[], object]]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's `__getattr__` and `__dir__` (PEP 562): attribute NAME is the attribute of that name of module
    where[NAME] (or what the function where[NAME] returns), made when it is first asked for, then kept."""

    def __getattr__(name: str) -> object:
        try:
            source = where[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = source() if callable(source) else getattr(importlib.import_module(source), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
