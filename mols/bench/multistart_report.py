"""`mols bench multistart`'s report: the ratios between its cells (x cpu1, gpu / gpu1) and its Markdown and CSV files
(multistart.py measures the cells)."""

from __future__ import annotations

from pathlib import Path

from mols.bench.common import Spread, write_tables
from mols.bench.multistart import COLUMNS, MODES, PAPER_SECONDS
from mols.markdown import markdown_list, markdown_table


def with_ratios(rows: list[dict]) -> list[dict]:
    """The rows with x_cpu1 (cpu1's time over the cell's, same instance) and, for the gpu column, x_gpu1 (gpu1's
    time over the cell's, same instance and mode), each Spread.over's median, min and max; NaN where the other cell
    is missing."""
    seconds = {(r["instance"], r["column"], r["mode"]): Spread.read(r, "seconds_full") for r in rows}

    def over(key: tuple, r: dict) -> Spread:
        return seconds[key].over(Spread.read(r, "seconds_full")) if key in seconds else Spread.of(())

    return [r | over((r["instance"], "cpu1", "one"), r).columns("x_cpu1")
            | (over((r["instance"], "gpu1", r["mode"]), r) if r["column"] == "gpu" else Spread.of(())).columns("x_gpu1")
            for r in rows]


def write_report(rows: list[dict], clusters: list[dict], notes: list[str], env: dict, output: Path) -> Path:
    """multistart.csv (a row per cell), clusters.csv and multistart.md in output; the Markdown file's path."""
    rows = with_ratios(rows)
    return write_tables(output, {"multistart.csv": rows, "clusters.csv": clusters},
                        ("multistart.md", render_markdown(rows, clusters, notes, env)))


def cell_text(row: dict) -> str:
    """A cell's time (est. where extrapolated) and its speed-up over cpu1."""
    text = Spread.read(row, "seconds_full").text(".2f") + (" est." if row["estimated"] else "")
    speedup = Spread.read(row, "x_cpu1").text(".1f")
    return text if row["column"] == "cpu1" or not speedup else f"{text} ×{speedup}"


def _order(cell: tuple[str, str]) -> tuple[int, int]:
    """one before batched, then cpu1, cpu, gpu1, gpu (the paper's CPU, MultiCPU, GPU, MultiGPU)."""
    return MODES.index(cell[1]), list(COLUMNS).index(cell[0])


def clusters_and_notes(clusters: list[dict], notes: list[str]) -> str:
    """A report's closing sections: each column's cluster and its start-up seconds, then the notes (none: "")."""
    text = ""
    if clusters:
        text += "\n## Clusters\n\n" + markdown_table(
            [{"column": c["column"], "workers": c["workers"], "start s": f"{c['start_seconds']:.1f}"}
             for c in clusters]) + "\n"
    if notes:
        text += "\n## Notes\n\n" + "\n".join(f"- {note}" for note in notes) + "\n"
    return text


def render_markdown(rows: list[dict], clusters: list[dict], notes: list[str], env: dict) -> str:
    workers = {c["column"]: c["workers"] for c in clusters}
    cells = sorted({(r["column"], r["mode"]) for r in rows}, key=_order)
    names = {cell: cell[0] + (f" ({workers.get(cell[0])})" if cell[0] in ("cpu", "gpu") else "")
             + (f" {cell[1]}" if cell[0].startswith("gpu") else "") + " s" for cell in cells}
    table = []
    for instance in dict.fromkeys(r["instance"] for r in rows):
        mine = {(r["column"], r["mode"]): r for r in rows if r["instance"] == instance}
        first = next(iter(mine.values()))
        line = {"instance": instance, "n": first["n"], "search": first["algorithm"].upper(),
                "K × iterations": f"{first['searches']} × {first['budget']:,}"}
        line |= {names[cell]: cell_text(mine[cell]) if cell in mine else "" for cell in cells}
        line |= {f"gpu / gpu1 {mode}": "×" + Spread.read(mine[("gpu", mode)], "x_gpu1").text(".2f")
                 if ("gpu", mode) in mine else "" for mode in MODES if ("gpu", mode) in cells}
        paper = PAPER_SECONDS.get(instance)
        line["paper CPU / MultiCPU / GPU / MultiGPU s"] = " / ".join(f"{s:g}" for s in paper) if paper else ""
        table.append(line)
    text = ("# Multistart: Table 5 of Luong et al. (2009) on this machine\n\nMade by `mols bench multistart`. K "
            "independent searches, seeds 0 .. K - 1, on a local Dask cluster: QAP iterated tabu search (runs of "
            "1,000 tabu iterations), flowshop PLS-≠. cpu1: one CPU worker, the searches one after another; "
            "cpu (W): W CPU workers, one per core; gpu1: one GPU worker; gpu (G): one worker per GPU. `one`: one "
            "search per task (one at a time per GPU, the paper's way); `batched`: ceil(K / GPUs) searches per "
            "task sharing each kernel launch. Time: wall time of the multistart (cluster start and compilation "
            "excluded; each repeat writes new folders), seconds for K searches of the full budget, the median over "
            "the repeats and in brackets their range; \"est.\": CPU searches made fewer iterations, their part of "
            "the time scaled to the budget. ×: against cpu1; gpu / gpu1: all GPUs against one, same mode (the "
            "medians' ratio, in brackets the ratios of the ranges' ends). Paper: Xeon 3 GHz 8 cores and 2 GTX 280, "
            "20 ITS of 10,000 iterations (no texture memory).\n\n"
            f"{markdown_list(env)}\n\n")
    text += markdown_table(table) + "\n" if table else "(no cells measured)\n"
    return text + clusters_and_notes(clusters, notes)
