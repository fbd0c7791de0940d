"""`mols bench anytime`: what the trace and the checkpoints cost a run, side by side in one process: each case run
with neither, with the trace, and with the trace and checkpoints every 10 s (and every 0.1 s, to time one)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from mols.algorithms.ils3opt.search import config_result, config_run
from mols.bench.common import Spread, write_report_files
from mols.markdown import markdown_list, markdown_table
from mols.resume import checkpoints
from mols.runner import RunConfig, build_search
from mols.search.checkpoint import Checkpoints
from mols.search.trace import Trace

# issue 39's runs: a 10,000-iteration PLS-≠ on 200_20_01, tabu on 020_10_01, and pcb3038 ILS-3opt to 0.2 %
CASES = {
    "200_20_01 PLS-≠": {"instance": "200_20_01", "algorithm": "pls", "iterations": 10_000},
    "020_10_01 tabu": {"instance": "020_10_01", "algorithm": "tabu", "iterations": 10_000},
    "pcb3038 ILS-3opt to 0.2 %": {"instance": "pcb3038", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block",
                                  "population": 4096, "merge": 512, "iterations": 2_000_000_000, "time": 60,
                                  "target": 137969},
}
SMALL = {"200_20_01 PLS-≠": {"instance": "020_05_01", "iterations": 200},  # --small: CI's smoke run on the CPU
         "020_10_01 tabu": {"iterations": 200},
         "pcb3038 ILS-3opt to 0.2 %": {"instance": "kroA100", "strategy": "cpu", "population": 8, "merge": 0,
                                       "iterations": 4000, "time": None, "target": None}}
# the last, a checkpoint every 0.1 s, times one (a run of the first three may take none)
VARIANTS = {"none": None, "trace": None, "trace + checkpoint 10 s": 10.0, "trace + checkpoint 0.1 s": 0.1}


class NoTrace:
    """What the runner takes for a run's trace where none is wanted: it hears nothing."""

    ended = False


class Timed:
    """A monitor's own time counted (`seconds`): its step and end events, mixed in before the monitor's class."""

    seconds = 0.0

    def on_step(self, run) -> None:
        began = time.perf_counter()
        super().on_step(run)
        self.seconds += time.perf_counter() - began

    def on_end(self, run, result) -> None:
        began = time.perf_counter()
        super().on_end(run, result)
        self.seconds += time.perf_counter() - began


class TimedTrace(Timed, Trace):
    """The trace, its own time counted."""


class TimedCheckpoints(Timed, Checkpoints):
    """Checkpoints, their own time counted: taking the state on the run's thread (its write runs beside the search,
    on a thread of its own), and waiting for the last write at the end."""


def one_run(fields: dict, backend: str, variant: str, folder: Path) -> dict:
    """One run of the case under the variant: its seconds of search, and those of its trace and checkpoints."""
    config = RunConfig(**fields, **({} if "strategy" in fields else {"backend": backend}))
    run = config_run(config) if config.strategy else build_search(config)
    run.trace = NoTrace() if variant == "none" else TimedTrace(run)
    monitors = []
    if VARIANTS[variant] is not None:
        timed = checkpoints(config, run, folder, VARIANTS[variant])
        monitors = [TimedCheckpoints(timed.interval, timed.take, timed.save)]
    result = config_result(config, monitors=monitors, run=run)[0] if config.strategy else run.run(monitors=monitors)
    written = monitors[0].written if monitors else 0
    return {"seconds": result.wall_seconds, "iterations": result.iterations,
            "trace_s": getattr(run.trace, "seconds", 0.0), "checkpoint_s": monitors[0].seconds if monitors else 0.0,
            "checkpoints": written, "trace_rows": len(run.trace.rows) if variant != "none" else 0}


def run(cases: list[str], backend: str, repeats: int, small: bool = False, on_row=lambda row: None) -> pd.DataFrame:
    """Each case's variants, `repeats` times in turn (the order rotating, so that drift hits them all alike); on_row
    of each variant's row as its case ends."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            fields = CASES[case] | (SMALL[case] if small else {})
            fields = {name: value for name, value in fields.items() if value is not None}
            one_run(fields, backend, "none", Path(folder))  # compiles: the repeats time searches only
            names = list(VARIANTS)
            runs = {name: [] for name in names}
            for r in range(repeats):
                for name in names[r % len(names):] + names[:r % len(names)]:
                    runs[name].append(one_run(fields, backend, name, Path(folder)))
            for name in names:
                rows.append({"instance": fields["instance"]} | summary(case, name, runs[name], runs["none"]))
                on_row(rows[-1])
    return pd.DataFrame(rows)


def summary(case: str, variant: str, runs: list[dict], bare: list[dict]) -> dict:
    seconds, none = Spread.of(r["seconds"] for r in runs), Spread.of(r["seconds"] for r in bare)
    written = sum(r["checkpoints"] for r in runs)
    return {"case": case, "variant": variant, "repeats": len(runs), "iterations": runs[0]["iterations"],
            **seconds.columns("seconds"), **seconds.over(none).columns("vs_none"),
            **Spread.of(100 * (r["trace_s"] + r["checkpoint_s"]) / r["seconds"] for r in runs).columns("own_percent"),
            "trace_rows": statistics.median(r["trace_rows"] for r in runs), "checkpoints": written,
            "ms_per_checkpoint": 1e3 * sum(r["checkpoint_s"] for r in runs) / written if written else None}


def write_report(df: pd.DataFrame, folder: Path) -> tuple[Path, Path]:
    return write_report_files(df, folder, "anytime", render)


def render(df: pd.DataFrame, env: dict) -> str:
    rows = [{"case": r["case"], "instance": r["instance"], "variant": r["variant"],
             "seconds": Spread.read(r, "seconds").text(".3f"), "vs none": Spread.read(r, "vs_none").text(".3f"),
             "own time %": Spread.read(r, "own_percent").text(".3f"), "trace rows": f"{r['trace_rows']:.0f}",
             "checkpoints": str(r["checkpoints"]),
             "ms per checkpoint": "" if pd.isna(r["ms_per_checkpoint"]) else f"{r['ms_per_checkpoint']:.1f}"}
            for r in df.to_dict("records")]
    return "\n".join([
        "# What the trace and the checkpoints cost", "", markdown_list(env), "", (
            "Each case with no trace, with the trace, and with the trace and a checkpoint every 10 s or every 0.1 s "
            "(`mols run --checkpoint`), run in turn in one process; each cell is the median (and the range) over "
            "the repeats. seconds: the search's; vs none: over the runs without a trace (the medians' ratio, the "
            "range of the extreme ratios); own time %: the share of the run spent in the trace and checkpoint "
            "monitors themselves (timed inside them), the overhead without the run-to-run noise (the trace's rows "
            "are measured after the run, when trace.csv is written); ms per checkpoint: taking a snapshot (copied "
            "back from the device), its write running beside the search. A checkpoint every 10 s costs a run "
            "(ms per checkpoint) / 10,000 of its time."), "", markdown_table(rows), ""])
