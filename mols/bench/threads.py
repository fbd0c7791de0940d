"""`mols bench threads`: the CPU backend's default (all cores, threads.py choosing) against --threads 1, on an idle
machine and beside busy processes, each run a fresh process, the two settings alternating."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from mols.bench.common import Spread, write_tables
from mols.environment import environment
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table

# (instance, RunConfig fields): the README's first command, and cases of each problem whose 1-thread run
# takes about a second on a 2-core machine.
CASES = {
    "readme": ("050_10_01", {}),
    "ta011-pls": ("ta011", {"iterations": 5000}),
    "tai50a-its": ("tai50a", {"problem": "qap", "algorithm": "its", "iterations": 20000}),
    "kroA100-tabu": ("kroA100", {"problem": "tsp", "algorithm": "tabu", "iterations": 10000}),
    "100x20-tabu": ("100_20_01", {"algorithm": "tabu", "iterations": 300}),
}
SETTINGS = {"default": None, "threads_1": 1}  # name (its CSV columns NAME_s, _min, _max) -> --threads


def child_seconds(instance: str, fields: dict, threads: int | None) -> float:
    """The search's wall time of one run in a fresh process."""
    config = json.dumps({"instance": instance, "backend": "cpu", "threads": threads, **fields})
    done = subprocess.run([sys.executable, "-m", "mols.bench.threads", config], capture_output=True, text=True, check=False)
    if done.returncode:
        raise MolsError(f"bench threads: the run {config} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.split()[-1])


@contextmanager
def busy(count: int):
    """`count` processes that keep one core each busy, for the block's duration."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def run(cases: list[str], loads: list[int], repeats: int, on_row: Callable[[dict], None] = lambda row: None
        ) -> pd.DataFrame:
    rows = []
    for load in loads:
        with busy(load):
            for case in cases:
                instance, fields = CASES[case]
                times = {name: [] for name in SETTINGS}
                for _ in range(repeats):
                    for name, threads in SETTINGS.items():
                        times[name].append(child_seconds(instance, fields, threads))
                spreads = {name: Spread.of(t) for name, t in times.items()}
                row = {"case": case, "busy processes": load}
                for name, seconds in spreads.items():
                    row |= seconds.columns(f"{name}_s")
                row |= spreads["default"].over(spreads["threads_1"]).columns("default_over_threads_1")
                rows.append(row)
                on_row(row)
    return pd.DataFrame(rows)


def write_report(df: pd.DataFrame, folder: Path, repeats: int) -> Path:
    """folder/threads.md and threads.csv (median, min and max of every time and ratio)."""
    shown = [{"case": r["case"], "busy processes": r["busy processes"],
              "default s": Spread.read(r, "default_s").text(".3f"),
              "threads 1 s": Spread.read(r, "threads_1_s").text(".3f"),
              "default / threads 1": Spread.read(r, "default_over_threads_1").text(".2f")}
             for r in df.to_dict("records")]
    cases = "\n".join(f"- {name}: `{instance}` {fields or '(the README: mols run 050_10_01)'}"
                      for name, (instance, fields) in CASES.items() if name in set(df["case"]))
    env = {key: os.environ[key] for key in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "NUMBA_THREADING_LAYER")
           if key in os.environ}
    text = "\n\n".join([
        "# CPU threads under load",
        (f"Made by `mols bench threads`. Search wall time of {repeats} runs per cell, each in a fresh process "
         "(compilation excluded): the median and in brackets the range; the ratio: the medians', in brackets the "
         "ratios of the ranges' ends. `default` is all cores with the backend choosing between them and 1 thread "
         "(mols/backends/threads.py), `threads 1` is `--threads 1`. Busy processes are Python loops, one core each."),
        markdown_list({**environment(), **env}), cases, markdown_table(shown),
    ]) + "\n"
    return write_tables(folder, {"threads.csv": df}, ("threads.md", text))


if __name__ == "__main__":  # one run, in the child process
    from mols.runner import RunConfig, solve

    print(solve(RunConfig(**json.loads(sys.argv[1]))).wall_seconds)
