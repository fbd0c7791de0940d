#!/usr/bin/env bash
# Issue 17 round 9 (flowshop_neighborhood_alone for one search, QAP whole steps with Taillard's update): gpu tests,
# the flowshop kernels alone before (.base) and after (scripts/probe_load.py), whole runs before and after.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout 200 python3 -m pytest -q -x -m gpu -p no:cacheprovider -rf tests/backends/test_gpu.py \
  tests/problems/test_flowshop_gpu.py tests/search/test_gpu_search.py tests/search/test_batch_search.py 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -4
INSTANCES="200_20_01 050_20_01" TREES=".base ." bash scripts/device_probe_load.sh 2>&1 | grep -v "^#" | grep neighborhood
RUN_TESTS=0 LOG=ab_round8.log REPEATS=3 CONFIGS="instance=200_20_01 variant=dominating
instance=200_20_01 variant=nondominated
instance=200_20_01 algorithm=tabu
instance=050_20_01 variant=nondominated
instance=tai100a problem=qap algorithm=tabu" bash scripts/device_ab.sh 2>&1 | tail -15
