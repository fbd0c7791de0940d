#!/usr/bin/env bash
# Issue 20, round 2: a block's threads over every candidate move of a direction (ils3opt.cu). The gpu parity tests
# (ILS-3opt, and the TSP, QAP and Q3AP kernels that share lane.cuh), then the kernels before (.base, carried: the
# session's first tree) and after, the same searches in fresh processes that alternate (scripts/ab_ils.py).
# Then run scripts/device_issue20_twin.sh for the bench. Logs come back in $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1 || export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/search/test_ils3opt_gpu.py \
  tests/problems/test_tsp_gpu.py tests/problems/test_qap_gpu.py tests/problems/test_q3ap_gpu.py 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -4
for case in "pcb3038 fi-block 256 200" "pcb3038 fi-block-shared 256 200" "rat783 fi-block-shared 2048 100" \
            "kroA100 fi-block-shared 2048 20"; do
  timeout 120 python3 scripts/ab_ils.py .base . --repeats ${REPEATS:-2} $case 2>&1 | tail -1
done | tee "$OUT/ab_ils.log"
