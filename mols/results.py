"""Results folders: front.csv (every objective of the problem, and the solutions), trace.csv (how the run went) and
run.json (configuration, versions, device, timings, counts), written under a lock and atomically, run.json last."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import mols
from mols.encodings import Encoding
from mols.environment import environment
from mols.problems import Problem
from mols.results_folder import FRONT, MANIFEST, TRACE, ResultsFolder, write_atomic
from mols.runner import RunConfig, SearchResult
from mols.search.base import Search
from mols.search.options import declared

RESULTS = Path("results")


@dataclass(frozen=True)
class RunContext:
    """What a results folder records about where a run ran, beside its configuration."""

    instance: str  # the instance's name, e.g. 200_20_01
    objectives: tuple[str, ...]
    device: str
    threads: int | None = None  # CPU cores the evaluation could use; None on the GPU
    encoding: Encoding | None = None  # how solutions are written (None: values separated by spaces)
    backend: str | None = None  # the evaluator's label: cpu x16, gpu, gpu+host archive, ...
    full: Problem | None = None  # where the run optimised some of its problem's objectives: the problem with all
    instance_sha256: str | None = None  # the instance's content (instance_digest): two files of one name differ

    @classmethod
    def of(cls, search: Search) -> RunContext:
        evaluator = search.evaluator
        return cls.on(search.problem, evaluator.device, getattr(evaluator, "threads", None), evaluator.label)

    @classmethod
    def on(cls, problem: Problem, device: str, threads: int | None, label: str) -> RunContext:
        """A run of `problem` on `device` (its name), with `threads` CPU cores, under the backend's `label`."""
        return cls(problem.instance_name, problem.objectives, device, threads, problem.encoding, label,
                   problem.full if problem.full is not problem else None, instance_digest(problem))


def instance_digest(problem: Problem) -> str:
    """SHA-256 of the instance as the kernels see it (the problem's name and its constant arrays, all objectives):
    reports tell runs of one instance by it, whatever the file was called."""
    digest = hashlib.sha256(problem.name.encode())
    for array in problem.full.kernels.data():
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array)  # its buffer, not a copy: the general Q3AP's C is n^6 entries
    return digest.hexdigest()


def safe_name(text: str) -> str:
    """text as a part of a folder's name: runs of other characters than letters, digits, '.', '_' and '-' as '_'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


def folder_name(config: RunConfig) -> str:
    """The default results folder's name, unique to the configuration: instance, problem (unless the
    flowshop), algorithm, neighborhood, budgets (iterations i, evaluations e, time T), objectives obj, the options
    given (each option's declared part: weights w, partitions p, tenure t, ...; search/options.py), target goal,
    the later parts (ILS-3opt's strategy, P, M; a PLS archive), backend (cpuT with T threads) and seed, e.g.
    200_20_01-tabu-insertion-i10000-w0.6_0.3_0.1-t50-gpu-s0. `config.backend` is resolved (cpu or gpu)."""
    parts = [safe_name(Path(config.instance).stem)]
    if config.problem != "flowshop":
        parts.append(config.problem)
    parts += [config.label, config.neighborhood]
    budgets = {"i": config.iterations, "e": config.evaluations, "T": None if config.time is None else f"{config.time:g}"}
    parts += [f"{key}{value}" for key, value in budgets.items() if value is not None]
    if config.objectives is not None:
        parts.append("obj" + "+".join(map(safe_name, config.objectives)))
    declared_parts = [(how.late, how.folder(getattr(config, f.name), config))
                      for f, how in declared(config.options) + declared(config) if how.folder is not None]
    parts += [part for late, part in declared_parts if not late and part is not None]
    if config.target is not None:
        parts.append("goal" + "_".join(f"{v:g}" for v in np.atleast_1d(config.target)))
    parts += [part for late, part in declared_parts if late and part is not None]
    parts.append(config.backend + (str(config.threads) if config.threads else ""))
    parts.append(f"s{config.seed}")
    return "-".join(parts)


def front_csv(result: SearchResult, objectives: tuple[str, ...], encoding: Encoding | None = None,
              full: Problem | None = None) -> bytes:
    """front.csv's content: the archive sorted by objectives, one column per objective, then `solution` (as the
    encoding writes it; a permutation's values separated by spaces). With `full` (the problem with all the
    objectives of a run that optimised some), one column per objective of `full`, its evaluation of the
    solutions; the rows are still sorted by the objectives optimised. Values are written as NumPy prints them."""
    F, X = result.archive.F, result.archive.X
    order = np.lexsort(F.T[::-1]) if len(F) else np.arange(0)
    if full is not None:
        objectives = full.objectives
        F = full.evaluate(X) if len(X) else np.empty((0, full.n_obj), full.dtype)
    write = encoding.format if encoding is not None else (lambda x: " ".join(map(str, x.tolist())))
    text = io.StringIO()
    rows = csv.writer(text, lineterminator="\n")
    rows.writerow([*objectives, "solution"])
    rows.writerows([*values, write(x)] for values, x in zip(F[order].astype(str).tolist(), X[order]))
    return text.getvalue().encode()


def trace_csv(trace) -> bytes:
    """trace.csv's content: a row per row of the run's Trace (search/trace.py), under its columns; values as Python
    writes them (an objective's best value NaN, `nan`, while the archive is empty)."""
    text = io.StringIO()
    rows = csv.writer(text, lineterminator="\n")
    rows.writerow(trace.columns)
    rows.writerows(trace.rows)
    return text.getvalue().encode()


def trace_record(result: SearchResult, trace: bytes | None) -> dict | None:
    """run.json's word on trace.csv: its rows and SHA-256, and the point its hypervolumes are measured up to (the
    same for every run of the instance and objectives); None where the run has no trace."""
    if trace is None:
        return None
    reference = result.trace.reference
    return {"file": TRACE, "rows": len(result.trace.rows), "sha256": hashlib.sha256(trace).hexdigest(),
            "reference_point": None if reference is None else reference.tolist()}


def manifest(config: RunConfig, result: SearchResult, context: RunContext, front: bytes,
             trace: bytes | None = None) -> dict:
    return {
        "mols": mols.__version__,
        "config": config.record(),
        "instance": context.instance,
        "instance_sha256": context.instance_sha256,
        "algorithm": config.label,
        "objectives": list(context.objectives),
        "encoding": context.encoding.name if context.encoding else None,
        "n_vars": context.encoding.size if context.encoding else None,
        "status": result.status,
        "ended_by": result.ended_by,
        "signal": result.signal,
        "resumed": result.resumed,
        "error": result.error,
        "backend": context.backend,
        "device": context.device,
        "threads": context.threads,
        "environment": environment(),
        "wall_seconds": result.wall_seconds,
        "profile": result.profile,
        "iterations": result.iterations,
        "neighbors_per_iteration": result.n_neighbors,
        "evaluated_neighbors": result.evaluated_neighbors,
        "starts": result.starts,
        "target": target_record(result),
        "walk": result.walk,
        "archive_size": len(result.archive),
        "front": {"file": FRONT, "rows": len(result.archive), "sha256": hashlib.sha256(front).hexdigest()},
        "trace": trace_record(result, trace),
        **({"details": result.details} if result.details else {}),
    }


def results_files(config: RunConfig, result: SearchResult, context: RunContext) -> dict[str, bytes]:
    """The content of a run's front.csv, trace.csv (where it has a trace) and run.json."""
    front = front_csv(result, context.objectives, context.encoding, context.full)
    trace = None if result.trace is None else trace_csv(result.trace)
    text = json.dumps(manifest(config, result, context, front, trace), indent=2) + "\n"
    return {FRONT: front, **({TRACE: trace} if trace is not None else {}), MANIFEST: text.encode()}


def target_record(result: SearchResult) -> dict | None:
    """Whether and when the run reached its target (None: it had none); its value, a list with several
    objectives."""
    if result.target is None:
        return None
    reached = result.reached
    return {"value": result.target, "reached": reached is not None,
            "iteration": reached.iteration if reached else None, "seconds": reached.seconds if reached else None}


def write_run(out: ResultsFolder, config: RunConfig, result: SearchResult, context: RunContext) -> None:
    """The run's front.csv, trace.csv and run.json into the folder `out` holds (ResultsFolder.write_files)."""
    out.write_files(results_files(config, result, context))


def write_results(folder: Path, config: RunConfig, result: SearchResult, context: RunContext) -> None:
    """Write front.csv, trace.csv and run.json into folder (made if missing; a run there is replaced)."""
    with ResultsFolder(folder, overwrite=True) as out:
        write_run(out, config, result, context)


__all__ = ["FRONT", "MANIFEST", "RESULTS", "TRACE", "ResultsFolder", "RunContext", "folder_name", "front_csv",
           "instance_digest", "manifest", "results_files", "safe_name", "target_record", "trace_csv", "trace_record",
           "write_atomic", "write_results", "write_run"]
