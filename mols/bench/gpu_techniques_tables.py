"""`mols bench gpu-techniques`, the report: the rows that gpu_techniques.py measured as gpu-techniques.md (every timed
cell its median and range) and one CSV per table."""

from __future__ import annotations

from pathlib import Path

from mols.backends.spec import MEMORIES
from mols.bench.common import Spread, write_tables
from mols.bench.gpu_techniques import MEASURED, ROUNDS, RUN_ITERATIONS
from mols.markdown import markdown_list, markdown_table


def write_report(tables: dict[str, list[dict]], folder: Path, settings: dict) -> Path:
    """folder/gpu-techniques.md and one CSV per table (every column: NAME, NAME_min and NAME_max of each time)."""
    from mols.environment import environment

    text = render_markdown(tables, environment() | settings)
    return write_tables(folder, {f"{name}.csv": rows for name, rows in tables.items()}, ("gpu-techniques.md", text))


def _us(row: dict, key: str) -> str:
    return (Spread.read(row, key) * 1e6).text(",.1f", " µs") or "–"


def _ratio(row: dict, key: str, fmt: str = ".3f", unit: str = "") -> str:
    return Spread.read(row, key).text(fmt, unit) or "–"


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


def tuning_rows(tables: dict[str, list[dict]]) -> list[dict]:
    """Table 7: the tuned launch against the best fixed launch of the grid, by device time, and the tuning's cost."""
    return [{"case": r["case"], "instance": r["instance"], "neighbors": f"{r['neighbors']:,}",
             "launches": f"{r['launches']}" + (f" (then {r['failed']} failed)" if r.get("failed") else ""),
             "tuned launch": r["tuned_launch"], "tuned": _us(r, "tuned_device_s"),
             "best fixed launch": r["best_fixed_launch"], "best fixed": _us(r, "best_fixed_device_s"),
             "tuned / best fixed": _ratio(r, "tuned_over_best_fixed_device"), "default": _us(r, "default_device_s"),
             "tuning": f"{r['tuning_iterations']:,} iterations ({r['tuning_pct_of_run']:.1f} %)"}
            for r in tables["tuning"]]


def render_markdown(tables: dict[str, list[dict]], env: dict) -> str:
    memory = [{"case": r["case"], **{m: _us(r, f"{m}_s") for m in MEMORIES}} for r in tables["memory"]]
    return (f"# GPU techniques (IEEE TC 2013, Tables 7-9) on this machine\n\nMade by `mols bench gpu-techniques`."
            f"\n\n```\n{MEASURED.strip()}\n```\n\n{markdown_list(env)}\n\n"
            f"## Generation on the device or on the host (Table 8)\n\n{markdown_table(generation_rows(tables))}\n\n"
            f"## Reduction on the device or F copied back (Table 9)\n\n{markdown_table(reduction_rows(tables))}\n\n"
            f"## Launch: tuned in the search against the grid's best (Table 7)\n\nDevice time per iteration (CUDA "
            f"events around replays of the iteration's graph, the launches in turn over {ROUNDS} rounds, the median "
            f"and range over the rounds); the tuning's iterations, and their share of a {RUN_ITERATIONS:,}-iteration "
            f"run.\n\n{markdown_table(tuning_rows(tables))}\n\n"
            f"## Memory variants\n\n{markdown_table(memory)}\n")
