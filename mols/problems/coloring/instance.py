"""Graph coloring instances: a strict reader of DIMACS .col files (format: mols/instances/coloring/SOURCE.md),
and the names `NAME`, `NAME:K`, `PATH:K`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, MolsError, excerpt
from mols.memory import check_fits
from mols.problems.io import (
    bundled_instances_dir,
    find_bundled,
    is_file,
    read_text,
    token_lines,
    whole_number,
)

FOLDER = "coloring"
# The published chromatic numbers of the bundled graphs (instances/coloring/SOURCE.md): a bundled
# NAME without :K is colored with that many colors.
CHROMATIC = {"myciel3": 4, "myciel4": 5, "myciel5": 6, "queen5_5": 5, "queen6_6": 7}
_MAX_COUNT = 2**31 - 1  # vertices and edges: int32 in the kernels (conflicts are at most the edges)
# The memory a graph takes, measured with tracemalloc on a random graph of 10^6 vertices and 2 10^6 edges:
# a vertex, its offset and degree count in adjacency() (int64); an edge, 217 bytes at the peak of reading
# (its line's text, its Python pair, the arrays made from them). A one-line file may declare gigabytes in N.
_VERTEX_BYTES = 16
_EDGE_BYTES = 220


@dataclass(frozen=True, eq=False, repr=False)
class Graph:
    """An undirected graph on vertices 0..n-1: edges (m, 2) int32, u < v, each once, sorted; read-only."""

    name: str
    n: int
    edges: np.ndarray
    lines: int  # the `e` lines of its file (M of the p line), duplicates included
    path: Path | None = None

    def __post_init__(self) -> None:
        edges = np.unique(np.sort(np.asarray(self.edges, dtype=np.int64).reshape(-1, 2), axis=1), axis=0)
        if edges.size and ((edges[:, 0] == edges[:, 1]).any() or edges.min() < 0 or edges.max() >= self.n):
            raise ValueError(f"edges must join two distinct vertices of 0..{self.n - 1}")
        edges = edges.astype(np.int32)
        edges.setflags(write=False)
        object.__setattr__(self, "edges", edges)

    @property
    def m(self) -> int:
        return len(self.edges)

    def adjacency(self) -> tuple[np.ndarray, np.ndarray]:
        """The neighbors of every vertex (CSR): offsets (n + 1,) int64 and neighbors (2 m,) int32, those of v
        being neighbors[offsets[v]:offsets[v + 1]]."""
        ends = np.concatenate([self.edges, self.edges[:, ::-1]])  # both directions
        ends = ends[np.argsort(ends[:, 0], kind="stable")]
        offsets = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(ends[:, 0], minlength=self.n), out=offsets[1:])
        return offsets, np.ascontiguousarray(ends[:, 1], dtype=np.int32)

    def __repr__(self) -> str:
        return f"Graph(name={self.name!r}, n={self.n}, m={self.m})"


@dataclass(frozen=True, eq=False)
class ColoringInstance:
    """A graph to color with k colors; named like myciel5-k6 in results."""

    graph: Graph
    k: int

    @property
    def name(self) -> str:
        return f"{self.graph.name}-k{self.k}"


def read_col(path: str | os.PathLike[str]) -> Graph:
    """A DIMACS .col file (see the module docstring)."""
    path = Path(path)
    header, edges = None, []  # header: (n, M, its line)
    for number, tokens in token_lines(read_text(path)):
        kind = tokens[0]
        if kind.startswith("c"):
            continue
        if kind == "p":
            if header is not None:
                raise InstanceError(path, f"a second 'p' line (the first is line {header[2]})", number)
            header = (*_header(path, tokens, number), number)
        elif kind == "e":
            if header is None:
                raise InstanceError(path, "an 'e' line before the 'p edge N M' line", number)
            edges.append(_edge(path, tokens, number, header[0]))
        else:
            raise InstanceError(path, f"expected a 'c', 'p' or 'e' line, found {excerpt(' '.join(tokens))}", number)
    if header is None:
        raise InstanceError(path, "no 'p edge N M' line: not a DIMACS graph")
    n, declared, line = header
    if len(edges) != declared:
        raise InstanceError(path, f"the 'p' line announces M = {declared} 'e' lines, found {len(edges)}", line)
    return Graph(path.stem, n, np.array(edges, dtype=np.int64).reshape(-1, 2), declared, path)


def _header(path: Path, tokens: list[str], number: int) -> tuple[int, int]:
    """(N, M) of a `p edge N M` line, once the memory they need is known to be available."""
    if len(tokens) != 4 or tokens[1] not in ("edge", "col"):
        raise InstanceError(path, f"expected 'p edge N M', found {excerpt(' '.join(tokens))}", number)
    n, m = (_count(path, token, number) for token in tokens[2:])
    if n < 1:
        raise InstanceError(path, "the graph needs at least one vertex, found N = 0", number)
    try:
        check_fits(n * _VERTEX_BYTES + m * _EDGE_BYTES, f"the 'p' line's N = {n} vertices and M = {m} 'e' lines")
    except MolsError as err:  # before a single array is made, and with the file and line
        raise InstanceError(path, str(err), number) from None
    return n, m


def _edge(path: Path, tokens: list[str], number: int, n: int) -> tuple[int, int]:
    """The 0-based ends of an `e u v` line."""
    if len(tokens) != 3:
        raise InstanceError(path, f"expected 'e u v', found {excerpt(' '.join(tokens))}", number)
    u, v = (_count(path, token, number) for token in tokens[1:])
    for end in (u, v):
        if not 1 <= end <= n:
            raise InstanceError(path, f"vertex {end} is out of range 1..{n}", number)
    if u == v:
        raise InstanceError(path, f"a self-loop on vertex {u}: no coloring could be proper", number)
    return u - 1, v - 1


def _count(path: Path, token: str, number: int) -> int:
    value = whole_number(token, _MAX_COUNT)
    if value is None:
        raise InstanceError(path, f"expected a whole number up to {_MAX_COUNT}, found {excerpt(token)}", number)
    return value


def resolve_coloring(instance: str) -> ColoringInstance:
    """`NAME` (a bundled graph, with its chromatic number of colors), `NAME:K` or `PATH:K` (K colors)."""
    where, colors = _split_colors(instance)
    path = find_bundled(where, (FOLDER,), ("", ".col"))
    if path is None:
        raise InstanceError(where, f"no such instance file; give a path or a bundled name ({', '.join(CHROMATIC)}), "
                            "with :K for K colors")
    if colors is None:
        if where not in CHROMATIC or is_file(where):
            raise MolsError(f"{instance}: give the number of colors as {instance}:K (K at least 2)")
        colors = CHROMATIC[where]
    graph = read_col(path)
    if not 2 <= colors <= max(graph.n, 2):
        raise MolsError(f"{instance}: the number of colors must be in 2..{max(graph.n, 2)} (the graph has "
                        f"{graph.n} vertices), got {colors}")
    return ColoringInstance(graph, colors)


def _split_colors(instance: str) -> tuple[str, int | None]:
    """('myciel5', 6) from 'myciel5:6'; (instance, None) without a ':K' suffix."""
    where, colon, colors = instance.rpartition(":")
    if not colon:
        return instance, None
    k = whole_number(colors.strip(), _MAX_COUNT)
    if k is None:
        raise MolsError(f"{instance}: expected NAME:K with K the number of colors, a whole number; got "
                        f"{excerpt(colors)}")
    return where, k


def instance_table() -> tuple[str, list[str], list[list]]:
    """The bundled graphs and their published chromatic numbers: (title, columns, rows), for `mols instances`."""
    folder = bundled_instances_dir() / FOLDER
    rows = [[graph.name, graph.n, graph.m, graph.lines, CHROMATIC.get(graph.name, "?")]
            for graph in (read_col(path) for path in sorted(folder.glob("*.col")))]
    title = f"graph coloring instances (-p coloring) under {folder}: NAME with its chromatic number of colors"
    return title, ["name", "vertices", "edges", "'e' lines", "chromatic number"], rows
