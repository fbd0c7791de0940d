#!/usr/bin/env bash
# Issue 21 (Q3AP) on the device, about 5 minutes: the gpu tests of the Q3AP and of what its change touches
# (pairs.cuh under swap and 2-opt: the decode test of every neighborhood, the QAP and TSP kernels), then
# mols bench q3ap on the GPU (Table I with fewer runs and ILS iterations than the paper, and the two
# neighborhoods at equal evaluations on nug15), each into $OUT. Run from the repository root:
#   OUT=/tmp/out bash scripts/device_issue21.sh
set -uo pipefail
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
timeout -s INT ${TESTS_LIMIT:-100} python3 -m pytest -q -m gpu -p no:cacheprovider -rf \
  tests/problems/test_q3ap_gpu.py tests/backends/test_gpu.py tests/problems/test_qap_gpu.py tests/problems/test_tsp_gpu.py \
  2>&1 | tee "$OUT/gpu_tests.log" | tail -25
# Table I: 10 runs per instance, at most 30 ILS iterations of 2,000 tabu iterations (paper: 50 runs, 100 x 5,000),
# stopped at the best known; the 1-core CPU time is the runs' iterations at the rate of 20 timed iterations.
# Then the neighborhoods at equal evaluations on nug15: 11,025 advanced iterations (the paper's), 5 runs each.
timeout -s INT ${BENCH_LIMIT:-220} python3 cli.py bench q3ap --runs ${RUNS:-10} --ils ${ILS:-30} --ts ${TS:-2000} \
  --cpu-iterations 20 --compare nug15 --compare-iterations ${COMPARE_ITERATIONS:-11025} --compare-runs 5 \
  -o "$OUT/q3ap" 2>&1 | tee "$OUT/bench_q3ap.log" | tail -40
