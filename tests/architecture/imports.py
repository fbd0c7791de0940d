"""The import graph of the mols package, read from its source: every import (also inside functions, not under
TYPE_CHECKING), and every private name one module takes from another."""

from __future__ import annotations

import ast
from pathlib import Path

import mols

ROOT = Path(mols.__file__).parent
ALLOWED_PRIVATE = {"_replace", "_asdict", "_fields", "_make", "_exit", "_getframe"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, tuple[Path, ast.Module]]:
    """Each module of the package: its file and syntax tree."""
    return {module_name(p): (p, ast.parse(p.read_text(), str(p))) for p in sorted(ROOT.rglob("*.py"))}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of the statements under `if TYPE_CHECKING:`."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                lines.update(range(child.lineno, child.end_lineno + 1))
    return lines


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(modules: dict[str, tuple[Path, ast.Module]]) -> dict[str, set[str]]:
    """module -> the mols modules it imports (a name imported from a package counts as its submodule where one
    exists)."""
    graph = {}
    for name, (path, tree) in modules.items():
        skipped, found = _type_checking_only(tree), set()
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skipped:
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == "mols")
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(name, node, path.name == "__init__.py")
                if target.split(".")[0] != "mols":
                    continue
                subs = {f"{target}.{a.name}" for a in node.names} & modules.keys()
                found.update(subs or {target})
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def defined_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: functions, classes, assigned names and attributes, arguments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
    return names


def _inherited(node: ast.Attribute) -> bool:
    """self._x, cls._x, super()._x: a class's own or its bases' (a subclass may use what its base keeps for them)."""
    value = node.value
    return (isinstance(value, ast.Name) and value.id in ("self", "cls")) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super")


def private_uses(modules: dict[str, tuple[Path, ast.Module]]) -> list[str]:
    """`module: line: name` for each private name a module imports from another, or reads as an attribute that it
    does not define itself (another module's), except through self, cls or super()."""
    found = []
    for name, (path, tree) in modules.items():
        own = defined_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [f"{name}:{node.lineno}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                  and node.attr not in own and node.attr not in ALLOWED_PRIVATE and not _inherited(node)):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found
