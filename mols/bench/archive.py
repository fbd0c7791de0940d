"""`mols bench archive`: the non-dominance filter alone, a batch of candidates offered to an archive: our GPU filter
against moocore, pymoo, BoTorch and the host Archive.add, on synthetic and flowshop cases (docs/internals.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from mols.archive import Archive
from mols.backends import prepare
from mols.backends.cuda import DeviceQueue, gpu_available, import_cupy
from mols.bench.common import Spread, time_spread, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.runner import RunConfig, solve

KS = (2, 3)
NS = (1_000, 10_000, 40_000, 100_000, 1_000_000)
SIZES = (10, 100, 1_000, 10_000)
INSTANCES = ("100_20_01", "200_20_01")
SCALE = 1_000_000  # synthetic members' objectives sum to it
NOISE = (-1, 20)  # candidate = member + noise in [lo w, hi w] per objective; w: half the members' spacing
LIBS = ("gpu", "moocore", "pymoo", "botorch", "host")
TARGET = (3, 40_000, 2_000)  # k, N, archive size of the case the filter aims to take in about a millisecond
SLOW_S = 2.0  # a library that took longer on one call is skipped for larger N of the same k and size
BUDGET_S = 1.0  # time spent on the repeats of one library on one case, about
CHECKED = ("moocore", "host")  # their answers must equal the GPU's; pymoo and BoTorch treat equal rows otherwise

Case = tuple[np.ndarray, np.ndarray]  # candidates F (N, k), archive A (M, k)


def plane_archive(rng: np.random.Generator, k: int, size: int) -> np.ndarray:
    """`size` distinct integer points whose coordinates sum to SCALE: no one dominates another."""
    A = np.empty((0, k), dtype=np.int64)
    while len(A) < size:
        P = np.floor(rng.dirichlet(np.ones(k), size) * SCALE).astype(np.int64)
        P[:, -1] = SCALE - P[:, :-1].sum(axis=1)
        A = np.unique(np.concatenate([A, P]), axis=0)
    return A[rng.permutation(len(A))[:size]]


def around(rng: np.random.Generator, A: np.ndarray, n: int) -> np.ndarray:
    """n members of A picked at random and moved by NOISE, scaled to the spacing of A's members."""
    k = A.shape[1]
    w = max(1, int(SCALE / len(A) ** (1 / (k - 1)) / 2))
    return A[rng.integers(0, len(A), n)] + rng.integers(NOISE[0] * w, NOISE[1] * w + 1, size=(n, k))


def flowshop_case(instance: str, iterations: int, rng: np.random.Generator) -> Case:
    """The insertion neighborhood of a member of the archive of a short PLS run, and that archive."""
    result = solve(RunConfig(instance, backend="cpu", iterations=iterations, seed=0))
    problem = load_problem("flowshop", instance)
    evaluator = prepare(problem, get_neighborhood("insertion"), "cpu")
    x = result.archive.X[rng.integers(len(result.archive))]
    return evaluator.evaluate(x).copy(), result.archive.F.copy()


def contenders(F: np.ndarray, A: np.ndarray) -> dict[str, Callable[[int], tuple[np.ndarray, np.ndarray]]]:
    """Per library, a call that filters F against A and returns (accepted (N,), removed (M,))."""
    union = np.concatenate([A, F])
    calls = {"moocore": lambda r: _split(_moocore(union), len(A)),
             "pymoo": lambda r: _split(_pymoo(union), len(A)),
             "host": lambda r: _host_add(F, A)}
    if gpu_available():
        calls["gpu"] = _gpu_call(F, A)
    is_non_dominated = _botorch()
    if is_non_dominated is not None:
        calls["botorch"] = _botorch_call(is_non_dominated, union, len(A))
    return calls


def _split(keep: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    return keep[m:], ~keep[:m]


def _moocore(union: np.ndarray) -> np.ndarray:
    import moocore

    return moocore.is_nondominated(union)


def _pymoo(union: np.ndarray) -> np.ndarray:
    """pymoo 0.6.2's find_non_dominated: moocore's is_nondominated on floats, keeping equal rows."""
    from pymoo.util.nds.non_dominated_sorting import find_non_dominated

    keep = np.zeros(len(union), dtype=bool)
    keep[find_non_dominated(union)] = True
    return keep


def _host_add(F: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    archive = Archive(A.shape[1], 1, dtype=A.dtype)
    archive.F = A
    return archive.verdict(F)


def _gpu_call(F: np.ndarray, A: np.ndarray):
    """Candidates and archive on the device first; each call runs every kernel and brings the
    accepted ids, their vectors and the removed flags back to the host."""
    from mols.archive.gpu_filter import GpuFilter

    cupy = import_cupy()
    F_dev, A_dev = cupy.asarray(F), cupy.asarray(A)
    cupy.cuda.Device().synchronize()
    gpu_filter, queue = GpuFilter(F.shape[1], F.dtype), DeviceQueue()

    def call(r):
        result = gpu_filter(F_dev, A_dev, queue)
        return result.accepted(len(F)), result.removed

    return call


def _botorch():
    try:
        from botorch.utils.multi_objective.pareto import is_non_dominated
    except ImportError:
        return None
    return is_non_dominated


def _botorch_call(is_non_dominated, union: np.ndarray, m: int):
    """BoTorch maximises: it gets -union, on the GPU where torch finds one."""
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    Y = -torch.as_tensor(union, dtype=torch.float64, device=device)
    return lambda r: _split(is_non_dominated(Y).cpu().numpy(), m)


def timed(fn: Callable[[int], object], repeats: int) -> tuple[Spread, float, object]:
    """(seconds of the repeats, seconds of the first call, its result). The first call is not among the
    repeats, and there are fewer of them when one call is slow, so that each library spends about
    BUDGET_S on a case; a call slower than that is timed once."""
    start = time.perf_counter()
    result = fn(0)
    first = time.perf_counter() - start
    if first > BUDGET_S:
        return Spread.of([first]), first, result
    return time_spread(fn, min(repeats, int(BUDGET_S / max(first, 1e-6))), warmup=0), first, result


def bench_case(label: str, F: np.ndarray, A: np.ndarray, repeats: int, skip: Iterable[str] = ()) -> tuple[dict, dict]:
    """One row: the time of every library not in `skip`, and the first call of each (to skip slow ones)."""
    calls = contenders(F, A)
    row = {"case": label, "k": F.shape[1], "candidates": len(F), "archive": len(A)}
    firsts, results = {}, {}
    for lib in LIBS:
        if lib in calls and lib not in skip:
            seconds, firsts[lib], results[lib] = timed(calls[lib], repeats)
            row |= seconds.columns(f"{lib}_s")
    reference = results.get("gpu", results.get("host"))
    row |= {"accepted": int(reference[0].sum()), "removed": int(reference[1].sum())}
    row["skipped"] = ", ".join(lib for lib in LIBS if lib in skip)
    row["disagree"] = ", ".join(lib for lib in CHECKED if lib in results
                                and not all(np.array_equal(a, b) for a, b in zip(results[lib], reference)))
    return row, firsts


def run(ks: Iterable[int] = KS, ns: Iterable[int] = NS, sizes: Iterable[int] = SIZES,
        instances: Iterable[str] = INSTANCES, pls_iterations: int = 300, repeats: int = 100, seed: int = 0,
        target: tuple[int, int, int] | None = TARGET, on_row: Callable[[dict], None] = lambda row: None) -> pd.DataFrame:
    """The target case, synthetic cases for every k, size and N (N growing, so a library too slow at
    one N is skipped at the larger ones), then the flowshop cases."""
    rng = np.random.default_rng(seed)
    rows = []

    def add(row: dict) -> None:
        rows.append(row)
        on_row(row)

    if target:
        k, n, size = target
        A = plane_archive(rng, k, size)
        add(bench_case("plane (target)", around(rng, A, n), A, repeats)[0])
    for k in ks:
        for size in sizes:
            A, slow = plane_archive(rng, k, size), set()
            for n in ns:
                row, firsts = bench_case("plane", around(rng, A, n), A, repeats, skip=slow)
                slow |= {lib for lib, s in firsts.items() if s > SLOW_S and lib != "gpu"}
                add(row)
    for instance in instances:
        add(bench_case(f"flowshop {instance}", *flowshop_case(instance, pls_iterations, rng), repeats)[0])
    return pd.DataFrame(rows)


def write_report(df: pd.DataFrame, folder: Path) -> tuple[Path, Path]:
    """folder/archive.md (environment and table) and folder/archive.csv (all columns: LIB_s, _min and _max)."""
    return write_report_files(df, folder, "archive", render_markdown)


def render_markdown(df: pd.DataFrame, env: dict[str, str]) -> str:
    rows = []
    for r in df.to_dict("records"):
        row = {"case": r["case"], "k": r["k"], "candidates": f"{r['candidates']:,}", "archive": f"{r['archive']:,}",
               "accepted": r["accepted"], "removed": r["removed"]}
        seconds = {lib: Spread.read(r, f"{lib}_s") for lib in LIBS if f"{lib}_s" in df}
        row |= {lib: "skipped" if lib in str(r["skipped"]) else (s * 1e3).text(",.3f") for lib, s in seconds.items()}
        if "gpu_s" in df:
            row |= {f"{lib} / gpu": _ratio(seconds[lib].over(seconds["gpu"])) for lib in ("moocore", "host")
                    if lib in seconds}
        rows.append(row)
    head = markdown_list(env)
    return (
        "# Non-dominance filter: candidates offered to an archive\n\n"
        "Made by `mols.bench.archive`. Wall time of one call, in ms, the median over the repeats and in brackets "
        "their range (ratios: the medians', in brackets the ratios of the ranges' ends), from arrays already in "
        "place: on the device for the GPU filter (its time includes bringing the accepted ids and "
        "vectors and the removed flags back to the host), in host memory for the others. moocore "
        "(`is_nondominated`) and pymoo (`find_non_dominated`, which is moocore's on floats keeping "
        "equal rows) get the archive and the candidates as one set; host is our `Archive.add` "
        "(Numba). moocore's and host's answers were checked equal to the GPU's "
        f"(disagreements: {', '.join(sorted(set(df['disagree'].dropna()) - {''})) or 'none'}). "
        f"'skipped': one call took more than {SLOW_S:.0f} s at a smaller N. "
        "BoTorch: `is_non_dominated` on the set as float64 tensors, negated (it maximises), on the GPU "
        f"where torch finds one{'' if 'botorch_s' in df else '; not installed here, so no column'}. "
        "Synthetic cases ('plane'): the archive is integer points on the plane where the objectives "
        f"sum to {SCALE:,}, the candidates are members moved by integer noise, mostly for the worse. "
        "Flowshop cases: the archive of a short PLS run, and the insertion neighborhood of one of "
        "its members.\n\n"
        f"{head}\n\n{markdown_table(rows)}\n"
    )


def _ratio(x: Spread) -> str:
    return x.text(",.1f" if x.median < 10 else ",.0f", "x")
