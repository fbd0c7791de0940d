"""The architecture is the folder layout, checked: each layer imports only the layers below it, no import cycles
(also not through imports inside functions), no module reads another's private names, small files and functions."""

from __future__ import annotations

import ast

import pytest

from tests.architecture.imports import imports, private_uses, sources

# Top to bottom: a module may import its own layer's modules and those of the layers below (docs/design.md).
LAYERS = [
    ("mols.__main__", "mols.cli"),
    ("mols.bench",),
    ("mols.pymoo", "mols.parallel"),
    ("mols.reporting",),
    ("mols.results", "mols.results_folder", "mols.environment", "mols.resume"),
    ("mols.runner",),
    ("mols.algorithms",),
    ("mols.search",),
    ("mols.archive",),
    ("mols.backends",),
    ("mols.problems",),
    ("mols.neighborhoods",),
    ("mols.encodings",),
    ("mols.errors", "mols.lazy", "mols.jit", "mols.signals", "mols.memory", "mols.extras",
     "mols.markdown", "mols"),
]
MAX_FILE_LINES, MAX_FUNCTION_LINES, MAX_DOCSTRING_LINES = 300, 60, 3

MODULES = sources()
GRAPH = imports(MODULES)


def layer(module: str) -> int:
    """The index of the module's layer (the longest matching prefix)."""
    best, index = -1, None
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, index = len(prefix), i
    if index is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return index


def test_every_module_imports_only_its_own_layer_and_those_below():
    upward = [f"{m} -> {t}" for m, targets in GRAPH.items() for t in sorted(targets) if layer(t) < layer(m)]
    assert upward == []


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's cycles, as its strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycles():
    assert strongly_connected(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle_through_three_modules():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_reads_another_modules_private_names():
    assert private_uses(MODULES) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_files_and_functions_are_small_and_docstrings_short(module):
    path, tree = MODULES[module]
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_FILE_LINES, f"{path}: {lines} lines"
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []
    docstring = ast.get_docstring(tree, clean=False) or ""
    assert 0 < len(docstring.splitlines()) <= MAX_DOCSTRING_LINES, f"{path}: a module docstring of 1-3 lines"
