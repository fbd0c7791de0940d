"""Per-kernel device times from an `ncu --csv` listing with gpu__time_duration.sum: median per kernel name,
in the order the kernels first ran.

    ncu --csv --profile-from-start off --metrics gpu__time_duration.sum python ... > ncu.csv
    python scripts/ncu_summary.py ncu.csv
"""

from __future__ import annotations

import csv
import statistics
import sys


def main() -> None:
    with open(sys.argv[1]) as f:
        lines = [line for line in f if line.startswith('"')]
    times: dict[str, list[float]] = {}
    for row in csv.DictReader(lines):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            unit = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}[row["Metric Unit"]]
            times.setdefault(row["Kernel Name"].split("(")[0], []).append(float(row["Metric Value"].replace(",", "")) * unit)
    for name, values in times.items():
        print(f"{name:28s} x{len(values):3d}  median {statistics.median(values):8.2f} us")
    print(f"{'all':28s}       sum of medians x count / runs: "
          f"{sum(statistics.median(v) * len(v) for v in times.values()) / min(len(v) for v in times.values()):.1f} us")


if __name__ == "__main__":
    main()
