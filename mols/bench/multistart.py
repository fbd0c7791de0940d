"""`mols bench multistart`: Table 5 of Luong, Melab & Talbi (2009) on this machine: K independent iterated tabu
searches on QAP tai12a ... tai256c on one core, all cores, one GPU and all GPUs, plus K PLS searches on the
flowshop 200_20_01; what a cell measures: docs/internals.md."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mols.bench.common import Spread, cpu_budget, write_tables
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table
from mols.runner import RunConfig, run_problem
from mols.signals import Stop

INSTANCES = ("tai12a", "tai15a", "tai17a", "tai20a", "tai25a", "tai30a", "tai35a", "tai40a", "tai50a", "tai60a",
             "tai64c", "tai80a", "tai100a", "tai256c")  # the paper's Table 5
FLOWSHOP = "200_20_01"
# Table 5 (Xeon 8 cores, 2 GTX 280, 20 ITS of 10 x 1,000 iterations), seconds: CPU, MultiCPU, GPU, MultiGPU.
PAPER_SECONDS = {"tai12a": (2.0, 0.4, 10, 7.1), "tai15a": (3.6, 0.6, 12, 8.0), "tai17a": (5.4, 0.7, 14, 8.7),
                 "tai20a": (8.8, 1.2, 16, 9.7), "tai25a": (17, 2.2, 19, 11), "tai30a": (29, 3.8, 22, 12),
                 "tai35a": (46, 6.0, 24, 13), "tai40a": (70, 8.9, 27, 15), "tai50a": (136, 17, 33, 18),
                 "tai60a": (238, 29, 39, 21), "tai64c": (292, 36, 43, 23), "tai80a": (593, 74, 66, 35),
                 "tai100a": (1220, 153, 110, 57), "tai256c": (23738, 2970, 3169, 1690)}
PAPER_RUN_LENGTH = 1000  # tabu iterations per ITS run (the paper: 10 runs of 1,000)
COLUMNS = {"cpu1": ("cpu", 1), "cpu": ("cpu", None), "gpu1": ("gpu", 1), "gpu": ("gpu", None)}  # device, workers
MODES = ("one", "batched")
WARM_ITERATIONS = 200
SCRATCH = "scratch"  # the timed multistarts' folders, under the output; removed at the end


@dataclass
class Case:
    """A row of the table: K searches of `fields` (RunConfig's keywords but the backend); a CPU search evaluates
    at most `cap` neighbors."""

    fields: dict
    n: int
    neighbors: int
    cap: int

    @property
    def instance(self) -> str:
        return self.fields["instance"]

    def iterations(self, column: str) -> int:
        """Iterations per search in this column: the budget, or on a CPU fewer where the cap bites."""
        budget = self.fields["iterations"]
        return budget if COLUMNS[column][0] == "gpu" else cpu_budget(budget, self.neighbors, self.cap)


@dataclass
class Settings:
    searches: int = 20
    repeats: int = 3
    modes: tuple[str, ...] = MODES  # of MODES: the arrangements measured where they apply


def make_case(instance: str, problem: str, algorithm: str, iterations: int, cap: int, **extra) -> Case:
    fields = {"instance": instance, "problem": problem, "algorithm": algorithm, "iterations": iterations, "seed": 0,
              **extra}
    config = RunConfig(**fields, backend="cpu")
    loaded = run_problem(config)
    return Case(fields, loaded.n, loaded.neighborhood(config.neighborhood).n_neighbors(loaded.n), cap)


def qap_case(instance: str, iterations: int, cpu_moves: int) -> Case:
    return make_case(instance, "qap", "its", iterations, cpu_moves, run_length=PAPER_RUN_LENGTH)


def flowshop_case(iterations: int, cpu_moves: int) -> Case:
    return make_case(FLOWSHOP, "flowshop", "pls", iterations, cpu_moves)


def plan_columns(requested: list[str], gpus: int) -> tuple[list[str], list[str]]:
    """The columns this machine can measure, and a note for each one it cannot."""
    kept, notes = [], []
    for column in requested:
        if COLUMNS[column][0] == "gpu" and gpus == 0:
            notes.append(f"{column}: skipped, no GPU visible (CuPy finds none)")
        elif column == "gpu" and gpus == 1:
            notes.append("gpu: skipped, one GPU visible (it would repeat gpu1)")
        else:
            kept.append(column)
    return kept, notes


def modes(case: Case, column: str, searches: int, workers: int, wanted=MODES) -> list[tuple[str, int]]:
    """(mode, searches per task) of a column, of those `wanted`: `one`; on a GPU also `batched` where the searches
    share launches (driver.default_per_task) and a task would hold more than one."""
    from mols.parallel.driver import default_per_task

    per_task = default_per_task(case.fields, searches, workers)
    found = [("one", 1)] + ([("batched", per_task)] if COLUMNS[column][0] == "gpu" and per_task > 1 else [])
    return [(mode, per) for mode, per in found if mode in wanted]


def timed_multistart(executor, fields: dict, searches: int, folder: Path, per_task: int) -> tuple[float, dict]:
    """Wall seconds of the driver's run (`mols multistart`'s) and its record; MolsError where a search did not
    complete."""
    from mols.parallel.driver import Driver
    from mols.parallel.record import MULTISTART, unfinished

    seeds = range(fields.get("seed", 0), fields.get("seed", 0) + searches)
    driver = Driver(executor, fields, seeds, folder, MULTISTART, per_task, overwrite=True)
    start = time.perf_counter()
    record = driver.run(Stop())  # never requested: Ctrl-C interrupts the bench itself
    seconds = time.perf_counter() - start
    error = unfinished(record)
    if error:
        raise MolsError(f"a benchmark multistart did not complete ({error}); see {folder / MULTISTART}")
    return seconds, record


def measure(executor, case: Case, column: str, mode: str, per_task: int, settings: Settings, scratch: Path) -> dict:
    """One cell: a warm-up multistart, then `repeats` timed ones (docs/internals.md)."""
    workers, iterations = len(executor.workers()), case.iterations(column)
    fields = case.fields | {"backend": COLUMNS[column][0], "iterations": iterations}
    warm = fields | {"iterations": min(WARM_ITERATIONS, iterations)}
    timed_multistart(executor, warm, per_task * workers, scratch / "warm-up", per_task)
    # a folder per repeat: each writes new folders, as `mols multistart -o NEW` does (replacing files costs more)
    folder = scratch / f"{case.instance}-{column}-{mode}"
    runs = [timed_multistart(executor, fields, settings.searches, folder / f"repeat-{repeat}", per_task)
            for repeat in range(settings.repeats)]
    shutil.rmtree(folder, ignore_errors=True)
    budget = case.fields["iterations"]
    full = Spread.of(s + (budget / iterations - 1) * _busiest_worker_seconds(record) for s, record in runs)
    return {"instance": case.instance, "problem": case.fields["problem"], "algorithm": case.fields["algorithm"],
            "n": case.n, "neighbors": case.neighbors, "column": column, "mode": mode, "workers": workers,
            "per_task": per_task, "searches": settings.searches, "iterations": iterations, "budget": budget,
            "estimated": iterations < budget, "repeats": settings.repeats,
            **Spread.of(s for s, _ in runs).columns("seconds"), **full.columns("seconds_full"),
            "task_seconds": statistics.median(_task_seconds(record) for _, record in runs),
            "search_seconds": statistics.median(sum(s["wall_seconds"] for s in r["searches"]) for _, r in runs),
            "gpus": ",".join(sorted({str(a["gpu"]) for _, r in runs for a in _last_attempts(r) if a.get("gpu")}))}


def _last_attempts(record: dict) -> list[dict]:
    return [task["attempts"][-1] for task in record["tasks"] if task["attempts"]]


def _busiest_worker_seconds(record: dict) -> float:
    """The largest sum of the searches' wall_seconds over one worker's tasks (searches one after another: the
    cells that scale them are on the CPU, where a task's searches share no clock)."""
    wall = {search["seed"]: search.get("wall_seconds", 0.0) for search in record["searches"]}
    workers: dict[str, float] = {}
    for task in record["tasks"]:
        if task["attempts"]:
            worker = task["attempts"][-1].get("worker", "")
            workers[worker] = workers.get(worker, 0.0) + sum(wall.get(seed, 0.0) for seed in task["seeds"])
    return max(workers.values(), default=0.0)


def _task_seconds(record: dict) -> float:
    return sum(attempt.get("seconds", 0.0) for attempt in _last_attempts(record))


OnRow = Callable[[list[dict], list[dict]], None]


def run(cases: list[Case], columns: list[str], settings: Settings, output: Path,
        on_row: OnRow = lambda rows, clusters: None) -> tuple[list[dict], list[dict]]:
    """Every case in every column, a cluster per column: (cells, clusters); on_row(cells, clusters) after each
    cell (e.g. to rewrite the report, so that a run cut short keeps what it measured)."""
    from mols.parallel.executors import open_executor

    rows, clusters, scratch = [], [], output / SCRATCH
    for column in columns:
        device, workers = COLUMNS[column]
        start = time.perf_counter()
        with open_executor("dask", device, workers) as executor:
            count = len(executor.workers())
            clusters.append({"column": column, "device": device, "workers": count,
                             "start_seconds": time.perf_counter() - start})
            for case in cases:
                for mode, per_task in modes(case, column, settings.searches, count, settings.modes):
                    rows.append(measure(executor, case, column, mode, per_task, settings, scratch))
                    on_row(rows, clusters)
    shutil.rmtree(scratch, ignore_errors=True)
    return rows, clusters


def with_ratios(rows: list[dict]) -> list[dict]:
    """The rows with x_cpu1 (cpu1's time over the cell's, same instance) and, for the gpu column, x_gpu1 (gpu1's
    time over the cell's, same instance and mode), each Spread.over's median, min and max; NaN where the other cell
    is missing."""
    seconds = {(r["instance"], r["column"], r["mode"]): Spread.read(r, "seconds_full") for r in rows}

    def over(key: tuple, r: dict) -> Spread:
        return seconds[key].over(Spread.read(r, "seconds_full")) if key in seconds else Spread.of(())

    return [r | over((r["instance"], "cpu1", "one"), r).columns("x_cpu1")
            | (over((r["instance"], "gpu1", r["mode"]), r) if r["column"] == "gpu" else Spread.of(())).columns("x_gpu1")
            for r in rows]


def header(settings: dict) -> dict:
    """environment() with the CPU's model, every visible GPU, the Dask versions, then the bench's settings."""
    from mols.environment import environment

    env = environment()
    env["cpu"] = f"{cpu_model()}, {os.cpu_count()} logical cores"
    names = gpu_names()
    env["gpus"] = f"{len(names)}: {', '.join(names)}" if names else "none"
    import dask
    import distributed

    return env | {"dask": dask.__version__, "distributed": distributed.__version__} | settings


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_names() -> list[str]:
    from mols.parallel.workers import visible_gpus

    gpus = visible_gpus()
    if not gpus:
        return []
    from mols.backends.cuda import import_cupy

    runtime = import_cupy().cuda.runtime
    return [runtime.getDeviceProperties(i)["name"].decode() for i in range(len(gpus))]


def write_report(rows: list[dict], clusters: list[dict], notes: list[str], env: dict, output: Path) -> Path:
    """multistart.csv (a row per cell), clusters.csv and multistart.md in output; the Markdown file's path."""
    rows = with_ratios(rows)
    return write_tables(output, {"multistart.csv": rows, "clusters.csv": clusters},
                        ("multistart.md", render_markdown(rows, clusters, notes, env)))


def cell_text(row: dict) -> str:
    """A cell's time (est. where extrapolated) and its speed-up over cpu1."""
    text = Spread.read(row, "seconds_full").text(".2f") + (" est." if row["estimated"] else "")
    speedup = Spread.read(row, "x_cpu1").text(".1f")
    return text if row["column"] == "cpu1" or not speedup else f"{text} ×{speedup}"


def _order(cell: tuple[str, str]) -> tuple[int, int]:
    """one before batched, then cpu1, cpu, gpu1, gpu (the paper's CPU, MultiCPU, GPU, MultiGPU)."""
    return MODES.index(cell[1]), list(COLUMNS).index(cell[0])


def clusters_and_notes(clusters: list[dict], notes: list[str]) -> str:
    """A report's closing sections: each column's cluster and its start-up seconds, then the notes (none: "")."""
    text = ""
    if clusters:
        text += "\n## Clusters\n\n" + markdown_table(
            [{"column": c["column"], "workers": c["workers"], "start s": f"{c['start_seconds']:.1f}"}
             for c in clusters]) + "\n"
    if notes:
        text += "\n## Notes\n\n" + "\n".join(f"- {note}" for note in notes) + "\n"
    return text


def render_markdown(rows: list[dict], clusters: list[dict], notes: list[str], env: dict) -> str:
    workers = {c["column"]: c["workers"] for c in clusters}
    cells = sorted({(r["column"], r["mode"]) for r in rows}, key=_order)
    names = {cell: cell[0] + (f" ({workers.get(cell[0])})" if cell[0] in ("cpu", "gpu") else "")
             + (f" {cell[1]}" if cell[0].startswith("gpu") else "") + " s" for cell in cells}
    table = []
    for instance in dict.fromkeys(r["instance"] for r in rows):
        mine = {(r["column"], r["mode"]): r for r in rows if r["instance"] == instance}
        first = next(iter(mine.values()))
        line = {"instance": instance, "n": first["n"], "search": first["algorithm"].upper(),
                "K × iterations": f"{first['searches']} × {first['budget']:,}"}
        line |= {names[cell]: cell_text(mine[cell]) if cell in mine else "" for cell in cells}
        line |= {f"gpu / gpu1 {mode}": "×" + Spread.read(mine[("gpu", mode)], "x_gpu1").text(".2f")
                 if ("gpu", mode) in mine else "" for mode in MODES if ("gpu", mode) in cells}
        paper = PAPER_SECONDS.get(instance)
        line["paper CPU / MultiCPU / GPU / MultiGPU s"] = " / ".join(f"{s:g}" for s in paper) if paper else ""
        table.append(line)
    text = ("# Multistart: Table 5 of Luong et al. (2009) on this machine\n\nMade by `mols bench multistart`. K "
            "independent searches, seeds 0 .. K - 1, on a local Dask cluster: QAP iterated tabu search (runs of "
            "1,000 tabu iterations), flowshop PLS-≠. cpu1: one CPU worker, the searches one after another; "
            "cpu (W): W CPU workers, one per core; gpu1: one GPU worker; gpu (G): one worker per GPU. `one`: one "
            "search per task (one at a time per GPU, the paper's way); `batched`: ceil(K / GPUs) searches per "
            "task sharing each kernel launch. Time: wall time of the multistart (cluster start and compilation "
            "excluded; each repeat writes new folders), seconds for K searches of the full budget, the median over "
            "the repeats and in brackets their range; \"est.\": CPU searches made fewer iterations, their part of "
            "the time scaled to the budget. ×: against cpu1; gpu / gpu1: all GPUs against one, same mode (the "
            "medians' ratio, in brackets the ratios of the ranges' ends). Paper: Xeon 3 GHz 8 cores and 2 GTX 280, "
            "20 ITS of 10,000 iterations (no texture memory).\n\n"
            f"{markdown_list(env)}\n\n")
    text += markdown_table(table) + "\n" if table else "(no cells measured)\n"
    return text + clusters_and_notes(clusters, notes)
