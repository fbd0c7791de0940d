"""`mols bench cluster`: L13's Tables 10 and 11 (PPP Hamming 2 on a cluster of workstations and a grid against one
GPU) on this machine: a fixed batch of K tabu searches on 1 ... all cores as Dask workers, and on one GPU."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from mols.bench.common import write_tables
from mols.bench.multistart import Case, Settings, header, make_case, measure
from mols.bench.multistart_report import cell_text, clusters_and_notes, with_ratios
from mols.markdown import markdown_list, markdown_table
from mols.problems.ppp.instance import PAPER_2013_SIZES

INSTANCES = PAPER_2013_SIZES  # the rows of Tables 10 and 11
DEFAULT_INSTANCES = ("73-73", "201-217", "401-417")  # what fits a few minutes beside one core's column
NEIGHBORHOOD = "hamming2"
SCRATCH = "scratch"
# Luong, Melab & Talbi, IEEE TC 2013, Tables 10 (COW: Xeon E5440 machines, Myri-10G) and 11 (Grid'5000 sites):
# per configuration (CPU cores, the GPU of the same power) the instances' (seconds, speed-up over one core) of
# GPUTex and of the cluster, one tabu search of 10,000 iterations whose neighborhood the cores share (OpenMP/MPI).
_P = PAPER_2013_SIZES
PAPER_GPU = {  # GPUTex: the same columns in both tables
    8: dict(zip(_P, ((0.8, 3.6), (1.1, 3.8), (2.5, 4.4), (15, 4.7), (103, 5.4), (512, 6.3), (1245, 6.9), (2421, 7.2),
                     (4903, 8.0)))),
    32: dict(zip(_P, ((0.2, 10.1), (0.3, 10.4), (0.6, 12.4), (3.3, 15.4), (24, 18.3), (89, 28.3), (212, 32.8),
                      (409, 35.2), (911, 36.2)))),
    88: dict(zip(_P, ((0.2, 10.9), (0.2, 12.2), (0.4, 18.1), (1.9, 25.3), (14, 28.8), (51, 40.1), (128, 42.3),
                      (252, 43.9), (568, 44.1)))),
    104: dict(zip(_P, ((0.2, 12.3), (0.2, 13.4), (0.3, 22.0), (1.6, 30.6), (10, 38.3), (35, 58.4), (81, 67.1),
                       (154, 71.9), (342, 73.3)))),
}
PAPER_COW = {  # Table 10: 1, 4, 11 and 13 machines of 8 cores
    8: dict(zip(_P, ((0.9, 3.5), (1.2, 3.6), (2.9, 3.8), (18, 3.9), (139, 4.1), (966, 3.3), (2828, 3.0), (6307, 2.8),
                     (15257, 2.6)))),
    32: dict(zip(_P, ((1.4, 1.6), (1.6, 1.8), (1.9, 3.8), (6.2, 8.2), (39, 11.3), (258, 9.8), (737, 9.4), (1708, 8.5),
                      (3968, 8.4)))),
    88: dict(zip(_P, ((5.4, 0.4), (5.6, 0.5), (6.0, 1.2), (7.6, 6.3), (21, 19.2), (115, 17.8), (322, 16.8),
                      (793, 14.0), (1807, 13.8)))),
    104: dict(zip(_P, ((5.9, 0.4), (6.3, 0.4), (6.7, 1.1), (7.0, 6.8), (19, 21.2), (108, 19.0), (311, 17.4),
                       (778, 14.3), (1789, 14.0)))),
}
PAPER_GRID = {  # Table 11: 2, 5, 12 and 14 machines over 2 to 7 sites, beside the GPU of 8, 32, 88 and 104 cores
    8: dict(zip(_P, ((1.1, 2.6), (1.4, 3.0), (3.5, 3.1), (22, 3.2), (167, 3.4), (1159, 2.8), (3394, 2.5),
                     (7568, 2.3), (18308, 2.2)))),
    40: dict(zip(_P, ((1.8, 1.2), (2.0, 1.4), (2.4, 3.0), (7.8, 6.5), (49, 9.0), (323, 7.8), (922, 7.5), (2135, 6.8),
                      (4960, 6.7)))),
    96: dict(zip(_P, ((7.3, 0.3), (7.6, 0.4), (8.1, 0.9), (10, 4.7), (28, 14.4), (155, 13.2), (425, 12.7),
                      (1071, 10.3), (2439, 10.2)))),
    112: dict(zip(_P, ((7.9, 0.3), (8.3, 0.4), (8.8, 0.8), (9.5, 4.9), (25, 16.1), (148, 13.8), (411, 13.1),
                       (1043, 10.6), (2405, 10.3)))),
}


def default_workers(cores: int | None = None) -> list[int]:
    """1, 2, 4 ... below the cores, the cores, then two machines' worth (twice the cores)."""
    cores = cores or os.cpu_count() or 1
    counts = [1 << i for i in range(cores.bit_length()) if 1 << i < cores]
    return counts + [cores, 2 * cores]


def ppp_case(instance: str, iterations: int, cpu_moves: int) -> Case:
    return make_case(instance, "ppp", "tabu", iterations, cpu_moves, neighborhood=NEIGHBORHOOD)


def column_name(device: str, workers: int) -> str:
    return f"{device}{workers}"


def run(cases: list[Case], workers: list[int], gpu: bool, settings: Settings, output: Path,
        on_row=lambda rows, clusters: None) -> tuple[list[dict], list[dict]]:
    """Every case on a local Dask cluster of each CPU worker count, then on one GPU worker: each cell the same K
    searches, one per task (multistart.measure); (cells, clusters)."""
    from mols.parallel.executors import open_executor

    rows, clusters, scratch = [], [], output / SCRATCH
    plan = [("cpu", count) for count in workers] + ([("gpu", 1)] if gpu else [])
    for device, count in plan:
        start = time.perf_counter()
        with open_executor("dask", device, count) as executor:
            name = column_name(device, count)
            clusters.append({"column": name, "device": device, "workers": len(executor.workers()),
                             "start_seconds": time.perf_counter() - start})
            for case in cases:
                kind = "gpu1" if device == "gpu" else "cpu1" if count == 1 else "cpu"
                rows.append(measure(executor, case, kind, "one", 1, settings, scratch) | {"column": name})
                on_row(rows, clusters)
    shutil.rmtree(scratch, ignore_errors=True)
    return rows, clusters


def write_report(rows: list[dict], clusters: list[dict], notes: list[str], env: dict, output: Path) -> Path:
    """cluster.csv (a row per cell), clusters.csv and cluster.md in output; the Markdown file's path."""
    rows = with_ratios(rows)
    return write_tables(output, {"cluster.csv": rows, "clusters.csv": clusters},
                        ("cluster.md", render_markdown(rows, clusters, notes, env)))


def _paper(table: dict, instance: str) -> str:
    return " / ".join(f"{cores}: ×{table[cores][instance][1]:g}" for cores in table) if instance in _P else ""


def paper_rows(instances: list[str]) -> list[dict]:
    """The paper's speed-ups over one core per instance, each configuration by its CPU cores."""
    return [{"instance": name, "paper GPUTex ×": _paper(PAPER_GPU, name), "paper COW ×": _paper(PAPER_COW, name),
             "paper grid ×": _paper(PAPER_GRID, name)} for name in instances]


def render_markdown(rows: list[dict], clusters: list[dict], notes: list[str], env: dict) -> str:
    columns = list(dict.fromkeys(c["column"] for c in clusters))
    cores = os.cpu_count() or 1
    names = {c["column"]: f"{c['column']} s" + (" (oversubscribed)" if c["device"] == "cpu" and c["workers"] > cores
                                                 else "") for c in clusters}
    table = []
    for instance in dict.fromkeys(r["instance"] for r in rows):
        mine = {r["column"]: r for r in rows if r["instance"] == instance}
        first = next(iter(mine.values()))
        line = {"instance": instance, "neighbors": f"{first['neighbors']:,}",
                "K × iterations": f"{first['searches']} × {first['budget']:,}"}
        table.append(line | {names[c]: cell_text(mine[c]) if c in mine else "" for c in columns})
    text = ("# Cluster against GPU: Tables 10 and 11 of Luong et al. (2013) on this machine\n\n"
            "Made by `mols bench cluster`. The same work in every column: K independent tabu searches (PPP, "
            "Hamming 2, seeds 0 .. K - 1) of the budget's iterations, one search per task of the driver of "
            "`mols multistart` on a local Dask cluster. cpuW: W CPU workers (one process and one core each, "
            "W above the cores: several machines' worth of processes sharing this machine's cores); gpu1: one GPU "
            "worker, the searches one after another, each neighborhood evaluated whole on the GPU. Time: wall time "
            "of the multistart (cluster start and compilation excluded), the median over the repeats and in "
            "brackets their range; \"est.\": CPU searches made fewer iterations, their part of the time scaled to "
            "the budget. ×: cpu1's time over the cell's (the ratios of the ranges' ends in brackets).\n\n"
            "Not the paper's split: the paper shares each iteration's neighborhood of one search over the cores "
            "(OpenMP/MPI, a synchronisation every iteration); here the cores share whole searches, with no "
            "communication during a search, so the CPU columns bound from above what a cluster of the same cores "
            "could give one search, and the paper's loss on small instances (its communication) is mostly absent. "
            "The speed-ups compare in kind; the paper's seconds (one search of 10,000 iterations) do not.\n\n"
            f"{markdown_list(env)}\n\n")
    text += markdown_table(table) + "\n" if table else "(no cells measured)\n"
    text += ("\n## The paper's speed-ups over one core (Tables 10 and 11, per configuration's CPU cores)\n\n"
             + markdown_table(paper_rows(list(dict.fromkeys(r["instance"] for r in rows)))) + "\n" if rows else "")
    return text + clusters_and_notes(clusters, notes)


def settings_header(searches: int, iterations: int, repeats: int, cpu_moves: int) -> dict:
    return header({"searches (K)": searches, "tabu iterations per search": f"{iterations:,}", "repeats": repeats,
                   "neighborhood": NEIGHBORHOOD, "CPU cap": f"{cpu_moves:,} neighbors per search"})
