"""`mols bench gpu-techniques`, the report: the rows that gpu_techniques.py measured as gpu-techniques.md (every timed
cell its median and range) and one CSV per table."""

from __future__ import annotations

import re
from pathlib import Path

from mols.backends.spec import MEMORIES
from mols.bench.common import Spread, write_tables
from mols.bench.gpu_techniques import MEASURED, ROUNDS, RUN_ITERATIONS
from mols.markdown import markdown_list, markdown_table

_BLOCK = re.compile(r"block_(\d+)_s")


def write_report(tables: dict[str, list[dict]], folder: Path, settings: dict) -> Path:
    """folder/gpu-techniques.md and one CSV per table (every column: NAME, NAME_min and NAME_max of each time)."""
    from mols.environment import environment

    text = render_markdown(tables, environment() | settings)
    return write_tables(folder, {f"{name}.csv": rows for name, rows in tables.items()}, ("gpu-techniques.md", text))


def _us(row: dict, key: str) -> str:
    return (Spread.read(row, key) * 1e6).text(",.1f", " µs") or "–"


def _ratio(row: dict, key: str, fmt: str = ".3f", unit: str = "") -> str:
    return Spread.read(row, key).text(fmt, unit) or "–"


def _blocks(row: dict) -> list[str]:
    """The fixed block sizes of a tuning row, as measured."""
    return [match[1] for match in map(_BLOCK.fullmatch, row) if match]


def generation_rows(tables: dict[str, list[dict]]) -> list[dict]:
    return [{"case": r["case"], "neighbors": f"{r['neighbors']:,}",
             **{f"{m}: process / transfers / kernel": f"{r[f'{m}_host_pct']:.0f} / {r[f'{m}_transfer_pct']:.0f} / "
                f"{r[f'{m}_kernel_pct']:.0f} %" for m in ("device", "host")},
             "device iteration": _us(r, "device_iteration_s"), "host iteration": _us(r, "host_iteration_s"),
             "host / device": _ratio(r, "host_over_device", ".2f", "x")} for r in tables["generation"]]


def reduction_rows(tables: dict[str, list[dict]]) -> list[dict]:
    return [{"case": r["case"], "CPU iteration": _us(r, "cpu_iteration_s"),
             "GPU, device reduction": _us(r, "gpu_device_iteration_s"), "GPU, F copied": _us(r, "gpu_copy_iteration_s"),
             "acceleration with reduction": _ratio(r, "acceleration_device", ".1f", "x"),
             "acceleration without": _ratio(r, "acceleration_copy", ".1f", "x")} for r in tables["reduction"]]


def tuning_rows(tables: dict[str, list[dict]]) -> tuple[list[dict], list[dict]]:
    """Table 7 by wall time, and the same launches by device time."""
    wall, device = [], []
    for r in tables["tuning"]:
        blocks = _blocks(r)
        wall.append({"case": r["case"], **{f"block {b}": _us(r, f"block_{b}_s") for b in blocks},
                     "default": _us(r, "default_s"), "tuned": _us(r, "tuned_s"), "tuned launch": r["tuned_launch"],
                     "tuned / best fixed": _ratio(r, "tuned_over_best_fixed"),
                     "tuned / fixed 256": _ratio(r, "tuned_over_fixed_256"),
                     "tuning pass": (Spread.read(r, "tuning_s") * 1e3).text(",.1f", " ms")
                     + f", {r['tuning_pct_of_run']:.2f} %",
                     "first pass, compiling": f"{r['tuning_first_s']:.1f} s ({r['tuning_first_pct_of_run']:.1f} %)"})
        device.append({"case": r["case"], **{f"block {b}": _us(r, f"block_{b}_device_s") for b in blocks},
                       "default": _us(r, "default_device_s"), "tuned": _us(r, "tuned_device_s"),
                       "tuned / best fixed": _ratio(r, "tuned_over_best_fixed_device"),
                       "tuned / default": _ratio(r, "tuned_over_default_device")})
    return wall, device


def render_markdown(tables: dict[str, list[dict]], env: dict) -> str:
    tuning, device = tuning_rows(tables)
    memory = [{"case": r["case"], **{m: _us(r, f"{m}_s") for m in MEMORIES}} for r in tables["memory"]]
    return (f"# GPU techniques (IEEE TC 2013, Tables 7-9) on this machine\n\nMade by `mols bench gpu-techniques`."
            f"\n\n```\n{MEASURED.strip()}\n```\n\n{markdown_list(env)}\n\n"
            f"## Generation on the device or on the host (Table 8)\n\n{markdown_table(generation_rows(tables))}\n\n"
            f"## Reduction on the device or F copied back (Table 9)\n\n{markdown_table(reduction_rows(tables))}\n\n"
            f"## Launch: fixed blocks, default, tuned (Table 7); % of a {RUN_ITERATIONS:,}-iteration run\n\n"
            f"{markdown_table(tuning)}\n\n### The same launches, device time per iteration (CUDA events around "
            f"replays of the iteration's graph, the launches in turn over {ROUNDS} rounds, the median and range over "
            f"the rounds: what the tuning pass compares)\n\n{markdown_table(device)}\n\n"
            f"## Memory variants\n\n{markdown_table(memory)}\n")
