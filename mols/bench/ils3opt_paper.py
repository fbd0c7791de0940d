"""Delévacq et al. 2012's Tables 1-3 as the paper prints them (data from the paper, §5), and the budget of each of
its cells: what `mols bench ils3opt --paper` runs and prints beside its own figures."""

from __future__ import annotations

from mols.algorithms.ils3opt.search import PAPER_SAMPLES

SOURCE = ("Delévacq, Delisle, Krajecki, \"Parallelization Strategies for Local Search Algorithms on Graphics "
          "Processing Units\" (2012), §5, Tables 1-3")
INSTANCES = ("kroA100", "lin318", "rat783", "fl1577", "pcb3038")
POPULATIONS = (1, 8, 64, 512, 2048)  # nbsol = 2^x, x in {0, 3, 6, 9, 11}
# The paper's strategies by mols' names: ILS-FI_thread (T), ILS-FI_block with the tour in global (BG) or shared (BS)
# memory (Table 1), ILS-RKBI_blocks (Tables 2 and 3); cpu and cpu-rkbi are their Numba twins (the paper's CPU code).
LABELS = {"fi-thread": "T", "fi-block": "BG", "fi-block-shared": "BS", "rkbi": "RKBI", "cpu": "CPU",
          "cpu-rkbi": "CPU-RKBI"}
RKBI = ("rkbi", "cpu-rkbi")
FI_ITERATIONS = 1_048_576  # §5.1: it_total of Table 1, every instance
# §5.2: Table 3's it_total per instance; its k (samples per step) is search.PAPER_SAMPLES
RKBI_ITERATIONS = {"kroA100": 1_120_000, "lin318": 1_120_000, "rat783": 560_000, "fl1577": 2_240_000,
                   "pcb3038": 2_240_000}
# Table 2: blocks per solution of ILS-RKBI_blocks (64 threads a block in the paper), for nbsol 1 .. 2048
BLOCKS = {"kroA100": (120, 70, 30, 5, 2), "lin318": (110, 60, 30, 5, 2), "rat783": (80, 100, 60, 10, 5),
          "fl1577": (140, 90, 60, 15, 15), "pcb3038": (120, 100, 90, 20, 20)}
PAPER_THREADS = 64  # §5.2: RKBI's threads a block (mols' kernel: RKBI_THREADS, 128)
# Speed-ups over the paper's one core (C2050 against its CPU), for nbsol 1 .. 2048; None: "-" (BS on pcb3038: no
# block fits a multiprocessor's shared memory). Table 1 (T, BG, BS) and Table 3 (RKBI).
SPEEDUP = {
    "fi-thread": {"kroA100": (0.01, 0.06, 0.34, 0.93, 2.02), "lin318": (0.01, 0.06, 0.35, 0.84, 1.72),
                  "rat783": (0.01, 0.06, 0.34, 0.80, 1.49), "fl1577": (0.01, 0.05, 0.23, 0.54, 0.79),
                  "pcb3038": (0.01, 0.06, 0.39, 0.76, 1.27)},
    "fi-block": {"kroA100": (0.08, 0.45, 2.83, 6.40, 7.07), "lin318": (0.09, 0.51, 3.23, 6.92, 7.77),
                 "rat783": (0.07, 0.43, 2.69, 5.77, 6.37), "fl1577": (0.07, 0.33, 1.73, 4.59, 5.20),
                 "pcb3038": (0.08, 0.46, 2.91, 5.20, 5.60)},
    "fi-block-shared": {"kroA100": (0.08, 0.50, 3.13, 7.01, 7.83), "lin318": (0.10, 0.57, 3.54, 7.61, 8.51),
                        "rat783": (0.08, 0.49, 2.18, 3.13, 3.27), "fl1577": (0.08, 0.40, 0.97, 1.14, 1.13),
                        "pcb3038": None},
    "rkbi": {"kroA100": (25.06, 37.21, 45.29, 42.12, 42.32), "lin318": (27.55, 38.35, 45.40, 43.21, 43.58),
             "rat783": (14.76, 16.74, 17.02, 16.24, 16.74), "fl1577": (30.40, 29.47, 29.52, 28.02, 28.85),
             "pcb3038": (31.23, 31.20, 31.70, 30.31, 33.59)},
}
# (f_req, Δavg %) per instance for nbsol 1 .. 2048. Table 1 prints one quality row for its three strategies (the
# same search); Table 3 RKBI's.
QUALITY = {
    "fi": {"kroA100": ((1.00,) * 5, (0.0,) * 5), "lin318": ((1.00,) * 5, (0.0,) * 5),
           "rat783": ((1.00, 1.00, 1.00, 0.23, 0.00), (0.000, 0.000, 0.000, 0.020, 0.145)),
           "fl1577": ((0.33, 0.39, 0.67, 0.10, 0.00), (0.182, 0.010, 0.003, 0.015, 0.074)),
           "pcb3038": ((0.00,) * 5, (0.210, 0.192, 0.306, 0.667, 1.104))},
    "rkbi": {"kroA100": ((1.00,) * 5, (0.0,) * 5),
             "lin318": ((0.00,) * 5, (0.482, 0.483, 0.633, 0.875, 0.886)),
             "rat783": ((0.00,) * 5, (1.224, 1.582, 2.740, 3.496, 3.518)),
             "fl1577": ((0.00,) * 5, (1.034, 1.703, 1.831, 1.776, 1.741)),
             "pcb3038": ((0.00,) * 5, (4.636, 4.940, 5.162, 5.104, 4.970))},
}


CELLS = len(INSTANCES) * len(POPULATIONS) * 4 - len(POPULATIONS)  # 4 strategies, BS on pcb3038 absent


def trials(n: int) -> int:
    """§5: 20 trials below 1,000 cities, 10 above."""
    return 20 if n < 1000 else 10


def budget(solver: str, instance: str, nbsol: int) -> dict:
    """A cell's it_total, k (rkbi's samples per step, else None) and Table 2's blocks per solution (GPU rkbi only)."""
    if solver not in RKBI:
        return {"it_total": FI_ITERATIONS, "k": None, "blocks": None}
    blocks = BLOCKS[instance][POPULATIONS.index(nbsol)] if solver == "rkbi" and nbsol in POPULATIONS else None
    return {"it_total": RKBI_ITERATIONS[instance], "k": PAPER_SAMPLES[instance], "blocks": blocks}


def paper(solver: str, instance: str, nbsol: int) -> dict:
    """The paper's speed-up, f_req and Δavg of a cell (None where it gives none: other nbsol, CPU rows' speed-up)."""
    if nbsol not in POPULATIONS:
        return {"paper_speedup": None, "paper_freq": None, "paper_dev": None}
    at = POPULATIONS.index(nbsol)
    speedups = SPEEDUP.get(solver, {}).get(instance)
    freq, dev = QUALITY["rkbi" if solver in RKBI else "fi"][instance]
    return {"paper_speedup": speedups[at] if speedups else None, "paper_freq": freq[at], "paper_dev": dev[at]}
