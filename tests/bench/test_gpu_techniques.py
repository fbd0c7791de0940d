"""mols bench gpu-techniques' report from measured rows (the measuring needs a device: tests/backends/
test_techniques_gpu.py covers the variants it times)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mols.backends.spec import MEMORIES
from mols.bench.gpu_techniques import write_report

HEAD = {"case": "qap", "instance": "tai100a", "neighborhood": "swap", "neighbors": 4950}


def tables() -> dict[str, list[dict]]:
    parts = {f"{m}_{k}": v for m in ("device", "host") for k, v in (("host_s", 1e-6), ("transfer_s", 3e-6),
                                                                     ("kernel_s", 6e-6))}
    pct = {f"{m}_{k}_pct": v for m in ("device", "host") for k, v in (("host", 10.0), ("transfer", 30.0),
                                                                      ("kernel", 60.0))}
    return {
        "generation": [HEAD | parts | pct | {"device_iteration_s": 2e-5, "host_iteration_s": 5e-5,
                                             "host_over_device": 2.5}],
        "reduction": [HEAD | {"cpu_iteration_s": 1e-3, "gpu_device_iteration_s": 2e-5, "acceleration_device": 50.0,
                              "gpu_copy_iteration_s": 4e-5, "acceleration_copy": 25.0}],
        "memory": [HEAD | {f"{m}_s": 2e-5 for m in MEMORIES} | {"shared_s": np.nan}],
        "tuning": [HEAD | {"block_128_s": 2.1e-5, "block_256_s": 2e-5, "default_s": 2.1e-5, "fixed_256_s": 2e-5,
                           "tuned_launch": "block 256, selection block 128", "tuned_s": 1.9e-5, "best_fixed_s": 2e-5,
                           "tuned_over_best_fixed": 0.95, "tuning_first_s": 1.5, "tuning_s": 0.004,
                           "tuning_pct_of_run": 2.1, "tuning_first_pct_of_run": 789.5,
                           "block_128_device_s": 1.6e-5, "block_256_device_s": 1.5e-5, "default_device_s": 1.6e-5,
                           "tuned_device_s": 1.5e-5, "tuned_over_best_fixed_device": 1.0}],
    }


def test_report_has_the_three_tables_and_every_csv(tmp_path):
    md = write_report(tables(), tmp_path, {"iterations per measurement": 50})
    text = md.read_text()
    for title in ("Table 8", "Table 9", "Table 7", "Memory variants"):
        assert title in text
    assert "10 / 30 / 60 %" in text and "50.0x" in text and "25.0x" in text and "0.950" in text
    assert "4 ms (2.10 %)" in text and "| – |" in text  # no shared-memory variant: a dash
    assert "device time per iteration" in text and "| 15.0 µs | 16.0 µs | 15.0 µs | 1.000 | 0.938 |" in text
    for name in ("generation", "reduction", "tuning", "memory"):
        assert len(pd.read_csv(tmp_path / f"{name}.csv")) == 1
