#!/usr/bin/env bash
# Issue 22 (GPU techniques) on the device, about 9 minutes (the tests about 4 when CuPy compiles every kernel): the gpu tests of the study variants and the tuning
# (tests/backends/test_techniques_gpu.py), then mols bench gpu-techniques (Tables 7-9 and the memory variants),
# each into $OUT. Run from the repository root:
#   OUT=/tmp/out bash scripts/device_issue22.sh
# TESTS_LIMIT and BENCH_LIMIT (seconds) bound the two parts; REPEATS sets the bench's iterations per measurement.
set -uo pipefail
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -p no:cacheprovider -rf \
  tests/backends/test_techniques_gpu.py 2>&1 | tee "$OUT/gpu_tests.log" | tail -25
timeout -s INT ${BENCH_LIMIT:-280} python3 cli.py bench gpu-techniques --repeats ${REPEATS:-50} \
  -o "$OUT/gpu-techniques" 2>&1 | tee "$OUT/bench_gpu_techniques.log" | tail -60
