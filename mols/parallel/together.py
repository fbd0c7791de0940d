"""Many searches of one configuration in this process, every kernel launch serving all of them (the device's batch,
algorithms/tabu/batch.py), written in the layout of the driver's: OUT/seed-S, the merged front and batch.json."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mols.errors import MolsError
from mols.parallel.record import EXIT_CODES, WRITERS, Written, refuse_taken, write_merged, write_seed
from mols.results import RunContext, results_files
from mols.results_folder import ResultsFolder, sync_disks
from mols.runner import RunConfig
from mols.runner.batch import seed_configs, sharing_batch


def run_together(config: RunConfig, size: int, folder: Path, overwrite: bool, stop,
                 on_iteration: Callable[[int], None] = lambda done: None, checkpoint: float | None = None
                 ) -> dict | None:
    """The searches of seeds config.seed .. config.seed + size - 1 in this process, sharing each launch, then their
    folders, merged front and batch.json; returns batch.json's content. None, before anything is done, where they
    cannot run so (not tabu or ITS, not the GPU, a target, or a problem without lane kernels). on_iteration sees
    the neighborhood evaluations of all the searches so far; `checkpoint` (seconds) is refused here."""
    done = [0] * size

    def counter(b: int):
        def count(iterations: int, _archive: int) -> None:
            done[b] = iterations
            on_iteration(sum(done))
        return count

    batch = sharing_batch(config, size, counter)
    if batch is None:
        return None
    if checkpoint is not None:  # SearchBatch.snapshot resumes from Python (Runner(batch, resume=...)), not from here
        raise MolsError("--checkpoint: searches sharing each launch (--batch of tabu or ITS on the gpu) cannot be "
                        "resumed from the command line yet; use mols multistart --checkpoint, whose searches "
                        "checkpoint one by one")
    configs = seed_configs(config, size)
    with ResultsFolder(folder, overwrite=True, kind="batch") as out:  # the seeds' folders are this run's
        if not overwrite:
            refuse_taken(folder, [one.seed for one in configs])
        stop.phase = "search"
        results = batch.run(stop)
        stop.phase = "write"  # a signal now is only noted: the folders are written
        files = {one.seed: results_files(one, result, RunContext.of(search))
                 for one, search, result in zip(configs, batch.searches, results)}
        with ThreadPoolExecutor(WRITERS, thread_name_prefix="mols-write") as pool:
            list(pool.map(lambda seed: write_seed(folder, seed, files[seed], durable=False), files))
        sync_disks()  # the folders on the disk before the record that names them
        out.written = True
        codes = {one.seed: EXIT_CODES.get(result.status, stop.exit_code or 130)
                 for one, result in zip(configs, results)}
        written = {one.seed: Written.of(files[one.seed], result.archive.F) for one, result in zip(configs, results)}
        return write_merged(folder, [one.seed for one in configs], codes, "one launch", written=written)
