"""mols bench gpu-techniques' report from measured rows (the measuring needs a device: tests/backends/
test_techniques_gpu.py covers the variants it times)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.backends.spec import MEMORIES
from mols.bench.common import Spread
from mols.bench.gpu_techniques_tables import write_report
from tests.bench.spreads import markdown_spreads, measured_spreads

HEAD = {"case": "qap", "instance": "tai100a", "neighborhood": "swap", "neighbors": 4950}


def timed(**medians: float) -> dict:
    """Each time's columns, its range 10 % either side of the median (NaN: nothing measured)."""
    return {k: v for key, median in medians.items() for k, v in Spread(median, 0.9 * median, 1.1 * median)
            .columns(key).items()}


def tables() -> dict[str, list[dict]]:
    parts = timed(**{f"{m}_{k}": v for m in ("device", "host") for k, v in (("host_s", 1e-6), ("transfer_s", 3e-6),
                                                                             ("kernel_s", 6e-6))})
    pct = {f"{m}_{k}_pct": v for m in ("device", "host") for k, v in (("host", 10.0), ("transfer", 30.0),
                                                                      ("kernel", 60.0))}
    return {
        "generation": [HEAD | parts | pct | timed(device_iteration_s=2e-5, host_iteration_s=5e-5, host_over_device=2.5)],
        "reduction": [HEAD | timed(cpu_iteration_s=1e-3, gpu_device_iteration_s=2e-5, acceleration_device=50.0,
                                   gpu_copy_iteration_s=4e-5, acceleration_copy=25.0)],
        "memory": [HEAD | timed(**{f"{m}_s": np.nan if m == "shared" else 2e-5 for m in MEMORIES})],
        "tuning": [HEAD | {"launches": 96, "failed": "", "tuned_launch": "block 96, selection block 64, selection grid "
                           "16 at most", "best_fixed_launch": "block 128, selection block 128, selection grid 8 at "
                           "most", "tuning_iterations": 288, "tuning_pct_of_run": 2.88}
                   | timed(tuned_device_s=1.5e-5, best_fixed_device_s=1.5e-5, tuned_over_best_fixed_device=1.0,
                           default_device_s=1.6e-5)],
    }


def test_report_has_the_tables_every_csv_and_each_range(tmp_path):
    md = write_report(tables(), tmp_path, {"iterations per measurement": 50})
    text = md.read_text()
    for title in ("Table 8", "Table 9", "Table 7", "Memory variants", "Device time per iteration"):
        assert title in text
    assert "10 / 30 / 60 %" in text and "| – |" in text  # no shared-memory variant: a dash
    assert "288 iterations (2.9 %)" in text and "| block 96, selection block 64, selection grid 16 at most |" in text
    cells = markdown_spreads(text)
    assert (50.0, 45.0, 55.0) in cells and (1.0, 0.9, 1.1) in cells and (15.0, 13.5, 16.5) in cells
    # generation 3, reduction 5, tuning 4 (tuned, best fixed, their ratio, default), memory: every variant but shared
    assert len(cells) == 3 + 5 + 4 + len(MEMORIES) - 1
    for name, key in (("generation", "device_kernel_s"), ("reduction", "acceleration_copy"),
                      ("tuning", "tuned_over_best_fixed_device"), ("memory", "plain_s")):
        assert len(measured_spreads(pd.read_csv(tmp_path / f"{name}.csv"), key)) == 1
