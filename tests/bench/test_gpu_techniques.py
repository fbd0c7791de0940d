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
        "tuning": [HEAD | {"tuned_launch": "block 256, selection block 128", "tuning_first_s": 1.5,
                           "tuning_pct_of_run": 2.1, "tuning_first_pct_of_run": 789.5}
                   | timed(block_128_s=2.1e-5, block_256_s=2e-5, default_s=2.1e-5, fixed_256_s=2e-5, tuned_s=1.9e-5,
                           best_fixed_s=2e-5, tuned_over_best_fixed=0.95, tuned_over_fixed_256=0.95, tuning_s=0.004,
                           block_128_device_s=1.6e-5, block_256_device_s=1.5e-5, default_device_s=1.6e-5,
                           tuned_device_s=1.5e-5, best_fixed_device_s=1.5e-5, tuned_over_best_fixed_device=1.0,
                           tuned_over_default_device=0.9375)],
    }


def test_report_has_the_tables_every_csv_and_each_range(tmp_path):
    md = write_report(tables(), tmp_path, {"iterations per measurement": 50})
    text = md.read_text()
    for title in ("Table 8", "Table 9", "Table 7", "Memory variants", "device time per iteration"):
        assert title in text
    assert "10 / 30 / 60 %" in text and ", 2.10 %" in text and "| – |" in text  # no shared-memory variant: a dash
    cells = markdown_spreads(text)
    assert (50.0, 45.0, 55.0) in cells and (0.95, 0.855, 1.045) in cells and (15.0, 13.5, 16.5) in cells
    # generation 3, reduction 5, tuning by wall 2 blocks + 5, by device 2 + 4, memory: every variant but shared
    assert len(cells) == 3 + 5 + 7 + 6 + len(MEMORIES) - 1
    for name, key in (("generation", "device_kernel_s"), ("reduction", "acceleration_copy"), ("tuning", "tuning_s"),
                      ("tuning", "tuned_over_default_device"), ("memory", "plain_s")):
        assert len(measured_spreads(pd.read_csv(tmp_path / f"{name}.csv"), key)) == 1
