"""TSPLIB instances: a strict reader for EUC_2D and ATT coordinate files and .opt.tour files, bundled
names, random instances (`random:N:SEED`) and bi-objective pairs (kroAB100 = kroA100 + kroB100)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mols.errors import InstanceError, excerpt, reason
from mols.memory import check_fits, nbytes
from mols.problems.io import bundled_instances_dir, find_bundled, read_text, whole_number

EDGE_WEIGHT_TYPES = ("EUC_2D", "ATT")
_HEADER = re.compile(r"^\s*([A-Z_]+)\s*:\s*(.*?)\s*$")
_RANDOM = re.compile(r"^random:([0-9]+):([0-9]+)$")
_KRO_PAIR = re.compile(r"^kro([A-E])([A-E])([0-9]+)$")
RANDOM_SIDE = 10_000  # random instances: integer coordinates in [0, RANDOM_SIDE)
MAX_CITIES = 2**31 - 1  # tours are int32 permutations
MAX_SEED = 2**64 - 1


@dataclass(frozen=True, eq=False, repr=False)
class TspInstance:
    """Cities in the plane; distances by TSPLIB's EUC_2D or ATT rule."""

    name: str  # the file's NAME, else its stem
    xy: np.ndarray  # (n, 2) float64 coordinates
    edge_weight_type: str
    path: Path | None = None  # the file read, which errors name

    @property
    def n(self) -> int:
        return int(self.xy.shape[0])


def _lines(path: Path) -> list[str]:
    """The file's lines, numbered as read_text numbers them: split at newlines only (splitlines() splits at
    form feeds, vertical tabs and a few other characters too)."""
    return read_text(path).removesuffix("\n").split("\n")


def _header(path: Path, lines: list[str], section: str) -> tuple[dict[str, str], dict[str, int], int]:
    """The KEY : value lines before `section`, the line number of each KEY, and the index of the section's
    first line."""
    keys: dict[str, str] = {}
    numbers: dict[str, int] = {}
    for k, line in enumerate(lines):
        if line.strip() == section:
            return keys, numbers, k + 1
        match = _HEADER.match(line)
        if not match:
            raise InstanceError(path, f"expected 'KEY : value' or {section}, got {excerpt(line)}", k + 1)
        keys[match.group(1)], numbers[match.group(1)] = match.group(2), k + 1
    raise InstanceError(path, f"no {section}")


def _dimension(path: Path, keys: dict[str, str], numbers: dict[str, int]) -> int:
    # No real upper bound: the coordinates are counted before any array is made. This one spares int()
    # thousands of digits.
    n = whole_number(keys.get("DIMENSION", ""), 10**18)
    if n is None or n < 3:
        raise InstanceError(path, "DIMENSION must be a whole number in 3..10^18, got "
                            f"{excerpt(str(keys.get('DIMENSION')))}", numbers.get("DIMENSION"))
    return n


def read_tsplib(path: str | Path) -> TspInstance:
    """A TSPLIB .tsp file with NODE_COORD_SECTION; InstanceError naming the file (and line) otherwise."""
    path = Path(path)
    lines = _lines(path)
    keys, numbers, start = _header(path, lines, "NODE_COORD_SECTION")
    if keys.get("TYPE", "TSP") != "TSP":
        raise InstanceError(path, f"TYPE {excerpt(keys['TYPE'])} is not supported; only TSP", numbers["TYPE"])
    kind = keys.get("EDGE_WEIGHT_TYPE")
    if kind not in EDGE_WEIGHT_TYPES:
        given = f"EDGE_WEIGHT_TYPE {excerpt(kind)} is not supported" if kind else "no EDGE_WEIGHT_TYPE"
        raise InstanceError(path, f"{given}; choose {' or '.join(EDGE_WEIGHT_TYPES)}",
                            numbers.get("EDGE_WEIGHT_TYPE"))
    n = _dimension(path, keys, numbers)
    xy = []  # not made at DIMENSION's size first: a wrong DIMENSION may be huge
    for k in range(start, len(lines)):
        tokens = lines[k].split()
        if not tokens:
            continue
        if tokens == ["EOF"]:
            break
        if len(xy) == n:
            raise InstanceError(path, f"more coordinates than DIMENSION {n}", k + 1)
        try:
            node, x, y = int(tokens[0]), float(tokens[1]), float(tokens[2])
        except (ValueError, IndexError):
            raise InstanceError(path, f"expected 'id x y', got {excerpt(lines[k])}", k + 1) from None
        if len(tokens) != 3 or node != len(xy) + 1 or not np.isfinite([x, y]).all():
            raise InstanceError(path, f"expected 'id x y' with id {len(xy) + 1} and finite x, y, got "
                                f"{excerpt(lines[k])}", k + 1)
        xy.append((x, y))
    if len(xy) != n:
        raise InstanceError(path, f"{len(xy)} coordinates, but DIMENSION is {n}", numbers["DIMENSION"])
    xy = np.array(xy, dtype=np.float64)
    xy.setflags(write=False)
    return TspInstance(keys.get("NAME", path.stem).strip() or path.stem, xy, kind, path)


def read_tour(path: str | Path, n: int) -> np.ndarray:
    """The 0-based tour (n,) of a TSPLIB .tour file; InstanceError unless it is a permutation of n cities."""
    path = Path(path)
    lines = _lines(path)
    *_, start = _header(path, lines, "TOUR_SECTION")
    nodes = []
    for k in range(start, len(lines)):
        for token in lines[k].split():
            if token in ("-1", "EOF"):
                break
            node = whole_number(token, MAX_CITIES)
            if node is None:
                raise InstanceError(path, f"expected a city id, got {excerpt(token)}", k + 1)
            nodes.append(node - 1)
        else:
            continue
        break
    tour = np.array(nodes, dtype=np.int32)
    if not np.array_equal(np.sort(tour), np.arange(n)):
        raise InstanceError(path, f"the tour is not a permutation of cities 1..{n}")
    return tour


def random_instance(n: int, seed: int) -> TspInstance:
    """n cities with integer coordinates drawn uniformly in [0, RANDOM_SIDE)^2, EUC_2D."""
    if n < 3:
        raise InstanceError(f"random:{n}:{seed}", "a random instance needs at least 3 cities")
    check_fits(2 * nbytes((n, 2), np.float64), f"random:{n}:{seed}: the coordinates of {n} cities")
    xy = np.random.default_rng(seed).integers(0, RANDOM_SIDE, size=(n, 2)).astype(np.float64)
    xy.setflags(write=False)
    return TspInstance(f"random{n}s{seed}", xy, "EUC_2D")


def tsp_dir() -> Path:
    return bundled_instances_dir() / "tsp"


def resolve_tsp(name_or_path: str) -> Path:
    """An existing file, else a bundled name such as kroA100."""
    found = find_bundled(name_or_path, ("tsp",), ("", ".tsp"))
    if found is None:
        raise InstanceError(name_or_path, "no such instance file; give a path, a bundled name such as kroA100, "
                                          "or random:N:SEED")
    return found


def load_tsp(name: str) -> TspInstance:
    """A .tsp path, a bundled name (kroA100) or random:N:SEED."""
    match = _RANDOM.match(name)
    if match:
        n, seed = whole_number(match.group(1), MAX_CITIES), whole_number(match.group(2), MAX_SEED)
        if n is None or seed is None:
            raise InstanceError(name, f"random:N:SEED takes N up to {MAX_CITIES} and SEED up to {MAX_SEED}")
        return random_instance(n, seed)
    return read_tsplib(resolve_tsp(name))


def load_pair(name: str) -> tuple[TspInstance, TspInstance]:
    """A bi-objective instance: kroXYn (kroAB100 = kroA100 and kroB100), or two .tsp files 'A.tsp,B.tsp'."""
    match = _KRO_PAIR.match(name)
    parts = [f"kro{match.group(1)}{match.group(3)}", f"kro{match.group(2)}{match.group(3)}"] if match else name.split(",")
    if len(parts) != 2:
        raise InstanceError(name, "a bi-objective instance is a name such as kroAB100 or two files 'a.tsp,b.tsp'")
    first, second = (load_tsp(part.strip()) for part in parts)
    if first.n != second.n:
        raise InstanceError(name, f"the two instances have {first.n} and {second.n} cities; they must match")
    return first, second


def write_tsplib(instance: TspInstance, path: Path) -> None:
    """Write `instance` as a TSPLIB file (coordinates with full precision)."""
    rows = "".join(f"{k + 1} {x!r} {y!r}\n" for k, (x, y) in enumerate(instance.xy.tolist()))
    text = (f"NAME : {instance.name}\nTYPE : TSP\nDIMENSION : {instance.n}\n"
            f"EDGE_WEIGHT_TYPE : {instance.edge_weight_type}\nNODE_COORD_SECTION\n{rows}EOF\n")
    try:
        path.write_text(text)
    except OSError as err:
        raise InstanceError(path, f"cannot write: {reason(err)}") from None


def optimal_lengths() -> dict[str, int]:
    """Published optimal tour lengths of the bundled instances (tsp_opt.csv)."""
    lines = (tsp_dir() / "tsp_opt.csv").read_text().splitlines()[1:]
    return {row.split(",")[0]: int(row.split(",")[3]) for row in lines if row}


@dataclass(frozen=True, eq=False, repr=False)
class TspPair:
    """A bi-objective instance: the same cities under two coordinate sets, one per objective."""

    name: str
    parts: tuple[TspInstance, TspInstance]


def optimal_length(name: str) -> int | None:
    """The published optimal tour length of a bundled instance (tsp_opt.csv), else None."""
    return optimal_lengths().get(name)


def instance_table() -> tuple[str, list[str], list[list[str]]]:
    """The bundled TSPLIB instances and their optimal lengths: (title, columns, rows), for `mols instances`."""
    optimum = optimal_lengths()
    found = sorted(((read_tsplib(path), path) for path in tsp_dir().glob("*.tsp")), key=lambda p: p[0].n)
    rows = [[inst.name, inst.n, inst.edge_weight_type, optimum.get(inst.name, ""),
             "yes" if path.with_suffix(".opt.tour").is_file() else "no"] for inst, path in found]
    return (f"tsp instances (-p tsp; -p bitsp pairs them: kroAB100 = kroA100 + kroB100) under {tsp_dir()}",
            ["name", "cities", "distances", "optimal length", ".opt.tour file"], rows)
