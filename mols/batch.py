"""`mols run --batch B`: B searches of one configuration (seeds seed .. seed + B - 1), in this process sharing
each launch where they can, else one `mols run` child each; then OUT/merged_front.csv and OUT/batch.json
(docs/internals.md)."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from mols.archive import nondominated
from mols.errors import MolsError
from mols.results import MANIFEST, ResultsFolder, RunContext, write_atomic, write_run
from mols.results_folder import KINDS
from mols.runner import RunConfig
from mols.algorithms.tabu.batch import seed_configs, sharing_batch

MERGED, BATCH = "merged_front.csv", KINDS["batch"]
EXIT_CODES = {"completed": 0, "failed": 1}  # interrupted: 128 + the signal's number
FLAGS = {"problem": "--problem", "algorithm": "--algorithm", "variant": "--variant", "neighborhood": "--neighborhood",
         "backend": "--backend", "iterations": "--iterations", "partitions": "--partitions", "tenure": "--tenure",
         "threads": "--threads", "archive": "--archive", "strength": "--strength", "run_length": "--run-length",
         "target": "--target", "time": "--time", "evaluations": "--evaluations", "restarts": "--restarts",
         "strategy": "--strategy", "population": "--population", "merge": "--merge", "block": "--block"}


def child_arguments(config: RunConfig, folder: Path, overwrite: bool) -> list[str]:
    """The `mols run` arguments of config's search (its seed) writing to folder."""
    args = [config.instance, "--seed", str(config.seed), "--output", str(folder)]
    for field, flag in FLAGS.items():
        value = getattr(config, field)
        if value is not None:
            args += [flag, ",".join(map(repr, value)) if isinstance(value, tuple) else str(value)]
    if config.weights is not None:
        args += ["--weights", ",".join(map(repr, config.weights))]
    if config.objectives is not None:
        args += ["--objectives", ",".join(config.objectives)]
    if config.tune:
        args.append("--tune")
    return args + (["--overwrite"] if overwrite else [])


def seed_folder(folder: Path, seed: int) -> Path:
    return folder / f"seed-{seed}"


def run_batch(command: list[str], config: RunConfig, size: int, folder: Path, parallel: int, overwrite: bool,
              stop, on_done: Callable[[int], None] = lambda done: None) -> dict:
    """Run the batch (module docstring) and write its merged front and batch.json; returns batch.json's
    content. command: how to start `mols run` (e.g. [python, "-m", "mols", "run"]); stop: a
    mols.signals.StopSignals whose signal ends the batch early. Each child's messages go to OUT/seed-S.log."""
    configs = seed_configs(config, size)
    waiting, running, codes, signalled = list(configs), {}, {}, set()
    while waiting or running:
        while waiting and len(running) < parallel and not stop.requested:
            one = waiting.pop(0)
            running[one.seed] = _start(command, one, seed_folder(folder, one.seed), overwrite)
        for seed, child in list(running.items()):
            if stop.requested and seed not in signalled:  # passed on once to each running child
                child.send_signal(stop.signum)
                signalled.add(seed)
            if child.poll() is not None:
                codes[seed] = child.returncode
                del running[seed]
                on_done(len(codes))
        if stop.requested:
            waiting.clear()
        time.sleep(0.05)
    return write_merged(folder, [one.seed for one in configs], codes, "processes")


def run_together(config: RunConfig, size: int, folder: Path, overwrite: bool, stop,
                 on_iteration: Callable[[int], None] = lambda done: None) -> dict | None:
    """The batch in this process, every kernel launch serving all its searches (module docstring), then its
    folders, merged front and batch.json; returns batch.json's content. None, before anything is done, where
    the batch cannot run so (not tabu or ITS, not the GPU, a target, or a problem without lane kernels).
    on_iteration sees the neighborhood evaluations of all the searches so far."""
    done = [0] * size

    def counter(b: int):
        def count(iterations: int, _archive: int) -> None:
            done[b] = iterations
            on_iteration(sum(done))
        return count

    batch = sharing_batch(config, size, counter)
    if batch is None:
        return None
    configs = seed_configs(config, size)
    for one in configs:
        if not overwrite and (seed_folder(folder, one.seed) / MANIFEST).exists():
            raise MolsError(f"{seed_folder(folder, one.seed)} holds a run already; give --overwrite to replace it, "
                            "or choose another --output")
    stop.phase = "search"
    results = batch.run(stop)
    stop.phase = "write"  # a signal now is only noted: the folders are written
    codes = {}
    for one, search, result in zip(configs, batch.searches, results):
        with ResultsFolder(seed_folder(folder, one.seed), overwrite) as out:
            write_run(out, one, result, RunContext.of(search))
        codes[one.seed] = EXIT_CODES.get(result.status, stop.exit_code or 130)
    return write_merged(folder, [one.seed for one in configs], codes, "one launch")


def _start(command: list[str], config: RunConfig, folder: Path, overwrite: bool) -> subprocess.Popen:
    """The child in a session of its own (a Ctrl-C reaches only the batch, which passes it on once)."""
    with open(folder.with_suffix(".log"), "wb") as log:
        return subprocess.Popen([*command, *child_arguments(config, folder, overwrite)], stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)


def write_merged(folder: Path, seeds: list[int], codes: dict[int, int], mode: str, name: str = BATCH,
                 extra: dict | None = None) -> dict:
    """OUT/merged_front.csv from the seeds' folders that hold a run, and OUT/batch.json (or OUT/`name`; `mode`:
    how the searches ran, "one launch" or "processes"; `extra`: more of its keys)."""
    from mols.reporting.runs import load_run  # reporting imports pymoo: only a batch's end needs it

    searches, fronts, objectives = [], [], None
    for seed in seeds:
        where = seed_folder(folder, seed)
        code = codes.get(seed)
        entry = {"seed": seed, "folder": where.name, "exit_code": code,
                 "status": "not run" if code is None else "failed"}
        if where.with_suffix(".log").is_file():
            entry["log"] = where.with_suffix(".log").name
        if (where / MANIFEST).is_file():
            run = load_run(where)
            objectives = run.manifest["objectives"]
            entry |= {key: run.manifest[key] for key in ("status", "iterations", "wall_seconds", "archive_size")}
            fronts.append(pd.read_csv(where / "front.csv", dtype={"solution": str}).assign(seed=seed))
        searches.append(entry)
    merged = merge_fronts(fronts, objectives)
    write_atomic(folder / MERGED, merged.to_csv(index=False).encode())
    record = {"mode": mode, **(extra or {}), "searches": searches, "merged": {"file": MERGED, "rows": len(merged)}}
    write_atomic(folder / name, json.dumps(record, indent=2).encode())
    return record


def merge_fronts(fronts: list[pd.DataFrame], objectives: list[str] | None) -> pd.DataFrame:
    """The non-dominated rows of the fronts together (with one objective, the rows of the best value), each
    with the seed that found it, sorted by objectives."""
    if not fronts:
        return pd.DataFrame(columns=["seed"])
    both = pd.concat(fronts, ignore_index=True)
    F = both[objectives].to_numpy()
    keep = F[:, 0] == F[:, 0].min() if len(objectives) == 1 else nondominated(F)
    return both[keep].sort_values([*objectives, "seed"], kind="stable").reset_index(drop=True)


def batch_error(record: dict) -> str | None:
    """What went wrong in the batch (failed or missing searches), or None."""
    bad = [f"seed {s['seed']}: {s['status']} (exit code {s['exit_code']})" for s in record["searches"]
           if s["status"] not in ("completed", "interrupted")]
    return "; ".join(bad) if bad else None
