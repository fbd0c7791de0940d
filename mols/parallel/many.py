"""`mols.solve_many`: many searches from Python through the driver, with the layout, retries and merged front of
`mols run --batch` and `mols multistart`."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mols.errors import MolsError
from mols.parallel.cluster import CONNECT_TIMEOUT
from mols.parallel.driver import Driver
from mols.parallel.executors import open_executor
from mols.parallel.record import MERGED, MULTISTART
from mols.runner import RunConfig, SearchResult
from mols.signals import StopSignals


@dataclass
class ManyResult:
    """What solve_many's searches found: each search's result by its seed (those that ran), their merged front
    (merged_front.csv: the non-dominated union, each row with its seed), the record (multistart.json's content)
    and the folder that holds them all (None where no output was given)."""

    results: dict[int, SearchResult]
    front: pd.DataFrame
    record: dict
    folder: Path | None


def many_fields(config: RunConfig | Sequence[RunConfig], seeds: int | Sequence[int] | None) -> tuple[dict, list]:
    """RunConfig's keywords of the searches and their seeds: one config with `seeds` (a count from its seed, or a
    list; None: its seed alone), or configs that differ by their seeds only."""
    configs = [config] if isinstance(config, RunConfig) else list(config)
    if not configs or not all(isinstance(one, RunConfig) for one in configs):
        raise MolsError("config must be a RunConfig or a non-empty sequence of them")
    if seeds is not None:
        if len(configs) > 1:
            raise MolsError("seeds: give them with one config, or give configs that differ by their seeds")
        first = configs[0].seed
        seeds = range(first, first + seeds) if isinstance(seeds, int) else seeds
        configs = [dataclasses.replace(configs[0], seed=seed) for seed in seeds]
    fields = [one.record() for one in configs]
    listed = [one.pop("seed") for one in fields]
    if not listed or len(set(listed)) != len(listed):
        raise MolsError(f"seeds must be distinct and at least one, got {listed}")
    if any(one != fields[0] for one in fields):
        raise MolsError("config: the searches of one solve_many differ by their seeds only; run other "
                        "configurations in another solve_many")
    return fields[0] | {"seed": listed[0]}, listed


def solve_many(config: RunConfig | Sequence[RunConfig], seeds: int | Sequence[int] | None = None, *,
               executor: str = "auto", workers: int | None = None, scheduler: str | None = None,
               output: Path | str | None = None, per_task: int | None = None, overwrite: bool = False,
               stop=None, connect_timeout: float = CONNECT_TIMEOUT) -> ManyResult:
    """Run many searches of one configuration (many_fields: a RunConfig and `seeds`, or configs that differ by
    their seeds), spread over workers, and merge their fronts. executor: "dask" (a LocalCluster of `workers`, or
    the cluster at `scheduler`), "processes" (a pool of `workers` local processes) or "auto" (Dask where the dask
    extra is installed); workers default to one per visible GPU on the gpu backend, else one per core (searches
    on one core each). output: the folder of OUT/seed-S, merged_front.csv and multistart.json (None: a temporary
    one, removed); overwrite replaces a multistart there. per_task: searches per task (default: tabu and ITS
    spread evenly over the workers, sharing each kernel launch on a GPU; others one per task). A task that fails,
    or whose worker dies, is tried once more. Without `stop`, SIGINT, SIGTERM and SIGHUP end the running searches
    at their next iteration (each keeps its archive so far) and start no other."""
    fields, listed = many_fields(config, seeds)
    device = RunConfig(**fields).spec.device
    with tempfile.TemporaryDirectory(prefix="mols-many-") as scratch:
        folder = Path(output) if output is not None else Path(scratch) / "searches"
        with open_executor(executor, device, workers, scheduler, None, connect_timeout) as pool:
            driver = Driver(pool, fields, listed, folder, MULTISTART, per_task, overwrite=overwrite, keep=True)
            driver.check()
            if stop is not None:
                record = driver.run(stop)
            else:
                with StopSignals(phase="search") as own:
                    record = driver.run(own)
        front = pd.read_csv(folder / MERGED, dtype={"solution": str})
    return ManyResult(driver.results, front, record, Path(output) if output is not None else None)
