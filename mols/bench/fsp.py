"""`mols bench fsp`, the runs: the flowshop paper's Tables 2-5 on the machine at hand, every run a results folder
under OUT/runs/ (kept and resumed), the tables built from those folders only (fsp_tables.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mols.backends.cuda import gpu_available
from mols.bench.common import FSP_SIZES
from mols.errors import MolsError
from mols.results import MANIFEST, ResultsFolder, RunContext, write_run
from mols.runner import RunConfig, build_search
from mols.search.base import OnIteration
from mols.signals import StopSignals

ALGORITHMS = {"tabu": {"algorithm": "tabu"}, "pls-dominating": {"algorithm": "pls", "variant": "dominating"},
              "pls-nondominated": {"algorithm": "pls", "variant": "nondominated"}}
BACKENDS = {"cpu1": {"backend": "cpu", "threads": 1}, "cpu": {"backend": "cpu"}, "gpu": {"backend": "gpu"},
            # PLS only: where the neighbors are filtered, whatever the variant's default
            "gpu-hostarchive": {"backend": "gpu", "archive": "cpu"}, "gpu-devicearchive": {"backend": "gpu", "archive": "gpu"}}
QUICK_ITERATIONS = 100


@dataclass(frozen=True)
class Cell:
    """One run of the benchmark: where it goes and what it is."""

    folder: Path
    config: RunConfig


def default_backends() -> list[str]:
    return ["cpu1", "cpu", "gpu"] if gpu_available() else ["cpu1", "cpu"]


def plan(out: Path, sizes: list[str], algorithms: list[str], backends: list[str], seeds: int,
         iterations: int) -> list[Cell]:
    """Every run, smallest size first, the backends of one configuration next to each other."""
    return [Cell(out / "runs" / f"{size}-{alg}-{backend}-s{seed}",
                 RunConfig(instance=FSP_SIZES[size], iterations=iterations, seed=seed,
                           **ALGORITHMS[alg], **backend_options(alg, backend)))
            for size in sizes for alg in algorithms for seed in range(seeds) for backend in backends]


def backend_options(algorithm: str, backend: str) -> dict:
    """The RunConfig fields of a backend; where PLS archives means nothing to tabu search."""
    options = BACKENDS[backend]
    return options if ALGORITHMS[algorithm]["algorithm"] == "pls" else {k: v for k, v in options.items() if k != "archive"}


def is_done(cell: Cell) -> bool:
    """The folder holds a completed run of exactly this configuration. The record is read back as a
    RunConfig, so fields newer than the run count with their defaults, resolved as they are now."""
    try:
        run = json.loads((cell.folder / MANIFEST).read_text())
        config = dict(run["config"])
        if config.get("weights") is not None:
            config["weights"] = tuple(config["weights"])
        recorded = RunConfig(**config)
    except (OSError, ValueError, KeyError, TypeError, MolsError):
        return False
    return run.get("status") == "completed" and recorded == cell.config


def run_cell(cell: Cell, on_iteration: OnIteration | None = None, stop: StopSignals | None = None) -> str:
    """Run and write one cell (its folder locked first); its status (completed, interrupted or failed)."""
    with ResultsFolder(cell.folder, overwrite=True) as out:
        search = build_search(cell.config, on_iteration)
        result = search.run(stop)
        write_run(out, cell.config, result, RunContext.of(search))
    if result.status == "failed":
        raise MolsError(f"run {cell.folder} failed: {result.error}")
    return result.status


def run(cells: list[Cell], on_start: Callable[[Cell], OnIteration | None] = lambda cell: None,
        stop: StopSignals | None = None) -> int:
    """Run the cells not done yet; the number run. Stops at an interruption (KeyboardInterrupt),
    after writing the interrupted run's archive."""
    todo = [cell for cell in cells if not is_done(cell)]
    for cell in todo:
        if run_cell(cell, on_start(cell), stop) == "interrupted":
            raise KeyboardInterrupt
    return len(todo)
