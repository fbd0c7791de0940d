#!/usr/bin/env bash
# One round on the device machine for the Weierstrass tabu walk on the device: the GPU tests of its
# kernels (evaluation, apply) and of device walks against host walks (QAP's too, and the device-side
# selection), then the times at n = 10 with 10,000 crowns neighbors, float32 and float64, for 16 lanes
# per neighbor (the default at n = 10) and 32: tabu per iteration (ITER iterations, the best of 2 seeds)
# with the walk on the device and from the host; the evaluation kernel alone, and evaluation with the
# device-side selection (CUDA events around graph replays). Logs go to $OUT. About 2 minutes.
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf \
  tests/problems/test_weierstrass_gpu.py tests/search/test_gpu_search.py tests/problems/test_qap_gpu.py 2>&1 \
  | tee "$OUT/weierstrass_gpu_tests.log" | tail -15
ITER=${ITER:-10000} timeout -s INT ${TIMING_LIMIT:-150} python3 - <<'PY' 2>&1 | tee "$OUT/weierstrass_timing.txt"
import os

import numpy as np

from mols.backends import BackendSpec, prepare
from mols.bench.common import graph_seconds
from mols.bench.weierstrass import kernel_seconds
from mols.neighborhoods.crowns import PAPER_COUNT, crowns
from mols.problems.weierstrass.instance import WeierstrassInstance
from mols.problems.weierstrass.model import Weierstrass
from mols.search.tabu import AggregatedTabu

iterations, nbh, key = int(os.environ["ITER"]), crowns(PAPER_COUNT), np.array([1, 1], np.uint64)
walks = {"device walk": BackendSpec("gpu"), "host walk": BackendSpec("gpu", device_walk=False)}
for precision in ("float32", "float64"):
    for lanes in (None, 32):
        problem = Weierstrass(WeierstrassInstance(10, precision))
        problem.lanes = lanes
        label = f"n=10 {precision} lanes={problem.threads_per_move}"
        for name, spec in walks.items():
            ev = prepare(problem, nbh, spec)
            per = []
            for seed in range(2):
                result = AggregatedTabu(problem, nbh, ev, iterations, np.random.default_rng(seed)).run()
                assert result.status == "completed", result.error
                per.append(result.wall_seconds / result.iterations)
            print(f"{label}: tabu, {name}: {min(per) * 1e6:.1f} us per iteration", flush=True)
        print(f"{label}: evaluation kernel alone: {kernel_seconds(ev, 20) * 1e6:.1f} us", flush=True)
        ev.selection(problem.random_solution(np.random.default_rng(0)), np.ones(1), 0, -np.inf, key)  # state up
        print(f"{label}: evaluation and selection, one graph: {graph_seconds(ev, ev.selection.enqueue, 100) * 1e6:.1f} us",
              flush=True)
PY
