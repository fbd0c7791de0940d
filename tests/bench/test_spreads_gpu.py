"""The benches' GPU measurements give each time its median and range, min <= median <= max: bench.common's CUDA-event
timers through gpu-techniques (Tables 7-9, memory), the GPU columns of neighborhood, ppp, tsp, weierstrass and batch,
on small instances. On the device only."""

from __future__ import annotations

import pytest

from mols.backends.spec import MEMORIES
from mols.bench import batch, gpu_techniques, neighborhood, ppp, tsp, weierstrass
from mols.bench.gpu_techniques_tables import write_report
from mols.neighborhoods import get_neighborhood
from tests.bench.spreads import markdown_spreads, measured_spreads

pytestmark = pytest.mark.gpu

TIMED = {
    "generation": [f"{mode}_{part}" for mode in ("device", "host") for part in
                   ("host_s", "transfer_s", "kernel_s", "iteration_s")] + ["host_over_device"],
    "reduction": ["cpu_iteration_s", "gpu_device_iteration_s", "gpu_copy_iteration_s", "acceleration_device",
                  "acceleration_copy"],
    "tuning": ["tuned_device_s", "best_fixed_device_s", "default_device_s", "tuned_over_best_fixed_device"],
}


def test_gpu_techniques_give_every_time_its_range(tmp_path, monkeypatch):
    monkeypatch.setitem(gpu_techniques.CASES, "qap", ("qap", "tai12a", "swap"))
    monkeypatch.setitem(gpu_techniques.TUNING_CASES, "qap", [("tai12a", "swap"), ("nug12", "swap")])
    monkeypatch.delenv("MOLS_TUNE")  # the bench runs the tuner itself (conftest turns tuning off)
    tables = gpu_techniques.run(["qap"], repeats=10)
    assert [row["instance"] for row in tables["tuning"]] == ["tai12a", "nug12"]
    counts = [(row["launches"], row["tuning_iterations"], row["failed"]) for row in tables["tuning"]]
    assert all(iterations == launches * 3 for launches, iterations, _ in counts), counts
    for name, keys in TIMED.items():
        for key in keys:
            assert len(measured_spreads(tables[name], key)) == len(tables[name]), (name, key)
    assert len(measured_spreads(tables["memory"], "default_s")) == 1
    for memory in MEMORIES:
        measured_spreads(tables["memory"], f"{memory}_s")  # NaN where QAP has no such variant
    text = write_report(tables, tmp_path, {}).read_text()
    assert len(markdown_spreads(text)) >= 3 + 5 + 2 * 4 + 1


def test_neighborhood_ppp_and_weierstrass_gpu_columns_have_ranges():
    row = neighborhood.bench_row("20x10", get_neighborhood("swap"), 2, 40)
    for key in ("gpu_kernel_s", "gpu_total_s", "gpu_kernel_nbr_per_s", "gpu_over_cpu_all_cores",
                "gpu_kernel_cells_per_s"):
        assert len(measured_spreads([row], key)) == 1, key
    df = ppp.run({"hamming2": ("73-73",)}, ["cpu", "gpu"], iterations=20, repeats=2, runs=0)
    assert len(measured_spreads(df, "gpu_s_per_iteration")) == 1
    assert len(markdown_spreads(ppp.render_markdown(df, {}))) == 5  # ms/it. and s of each backend, gpu vs cpu
    df = weierstrass.run(dimensions=[1], precisions=["float32"], backends=["gpu"], iterations=20, repeats=2,
                         neighbors=64, kernel_repeats=3)
    for key in ("s_per_iteration", "kernel_us"):
        assert len(measured_spreads(df, key)) == 1


def test_tsp_table_and_rates_on_the_gpu_have_ranges():
    runs = tsp.table_runs(["eil101"], ["gpu"], iterations=30, seeds=2, cpu_moves=10**6)
    assert len(measured_spreads(tsp.summary(runs, 30), "s_per_iteration")) == 1
    rates = tsp.rate_rows("random:300:1", "2opt", ["gpu"], iterations=5, cpu_moves=10**6, repeats=5, seeds=2)
    for key in ("moves_per_s", "fused_call_moves_per_s", "unfused_call_moves_per_s", "kernel_moves_per_s"):
        assert len(measured_spreads(rates, key)) == 1, key


def test_batches_and_weight_vectors_on_the_gpu_have_ranges():
    df, vectors = batch.tables(["020_10_01"], [1, 4], iterations=20, repeats=2, gpu=True, max_lane_bytes=2**30)
    gpu = df[df["device"] == "gpu"]
    assert list(gpu["searches"]) == [1, 4] and len(measured_spreads(gpu, "x_one_search")) == 2
    assert len(measured_spreads(vectors, "x_one_vector")) == 3 and len(measured_spreads(vectors, "seconds")) == 3
