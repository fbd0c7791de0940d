"""`mols run --batch B`: B searches of one configuration, seeds seed .. seed + B - 1, each the `mols run` of
its seed in a child process that writes its own results folder (OUT/seed-S), then the merged front of those
folders (OUT/merged_front.csv: the non-dominated union; with one objective, the rows of the best value)
and OUT/batch.json (each search's seed, folder, status, iterations, seconds and archive size).

On the CPU the children run side by side with one core each (--threads 1), `parallel` at a time (by default
the machine's cores); on the GPU one after another (searches sharing one kernel launch over (search, move)
are not built yet). Each child is exactly the run of its seed alone, so a batch finds what its searches
find one by one. A stop (SIGINT, SIGTERM, SIGHUP) is passed on to the running children, which write their
archives so far; no child starts after it, and the merged front is made from the folders written.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from mols.archive import nondominated
from mols.results import MANIFEST, write_atomic
from mols.search import RunConfig

MERGED, BATCH = "merged_front.csv", "batch.json"
FLAGS = {"problem": "--problem", "algorithm": "--algorithm", "variant": "--variant", "neighborhood": "--neighborhood",
         "backend": "--backend", "iterations": "--iterations", "partitions": "--partitions", "tenure": "--tenure",
         "threads": "--threads", "archive": "--archive", "strength": "--strength", "run_length": "--run-length",
         "target": "--target"}


def child_arguments(config: RunConfig, folder: Path, overwrite: bool) -> list[str]:
    """The `mols run` arguments of config's search (its seed) writing to folder."""
    args = [config.instance, "--seed", str(config.seed), "--output", str(folder)]
    for field, flag in FLAGS.items():
        value = getattr(config, field)
        if value is not None:
            args += [flag, str(value)]
    if config.weights is not None:
        args += ["--weights", ",".join(map(repr, config.weights))]
    return args + (["--overwrite"] if overwrite else [])


def seed_folder(folder: Path, seed: int) -> Path:
    return folder / f"seed-{seed}"


def run_batch(command: list[str], config: RunConfig, size: int, folder: Path, parallel: int, overwrite: bool,
              stop, on_done: Callable[[int], None] = lambda done: None) -> dict:
    """Run the batch (module docstring) and write its merged front and batch.json; returns batch.json's
    content. command: how to start `mols run` (e.g. [python, cli.py, "run"]); stop: a
    mols.signals.StopSignals whose signal ends the batch early. Each child's messages go to OUT/seed-S.log."""
    configs = [dataclasses.replace(config, seed=config.seed + b) for b in range(size)]
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
    return write_merged(folder, configs, codes)


def _start(command: list[str], config: RunConfig, folder: Path, overwrite: bool) -> subprocess.Popen:
    """The child in a session of its own (a Ctrl-C reaches only the batch, which passes it on once)."""
    with open(folder.with_suffix(".log"), "wb") as log:
        return subprocess.Popen([*command, *child_arguments(config, folder, overwrite)], stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)


def write_merged(folder: Path, configs: list[RunConfig], codes: dict[int, int]) -> dict:
    """OUT/merged_front.csv from the seeds' folders that hold a run, and OUT/batch.json."""
    from mols.reporting.runs import load_run  # reporting imports pymoo: only a batch's end needs it

    searches, fronts, objectives = [], [], None
    for config in configs:
        where = seed_folder(folder, config.seed)
        code = codes.get(config.seed)
        entry = {"seed": config.seed, "folder": where.name, "log": where.with_suffix(".log").name, "exit_code": code,
                 "status": "not run" if code is None else "failed"}
        if (where / MANIFEST).is_file():
            run = load_run(where)
            objectives = run.manifest["objectives"]
            entry |= {key: run.manifest[key] for key in ("status", "iterations", "wall_seconds", "archive_size")}
            fronts.append(pd.read_csv(where / "front.csv", dtype={"solution": str}).assign(seed=config.seed))
        searches.append(entry)
    merged = merge_fronts(fronts, objectives)
    write_atomic(folder / MERGED, merged.to_csv(index=False).encode())
    record = {"searches": searches, "merged": {"file": MERGED, "rows": len(merged)}}
    write_atomic(folder / BATCH, json.dumps(record, indent=2).encode())
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
