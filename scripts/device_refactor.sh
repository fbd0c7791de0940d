#!/usr/bin/env bash
# The device round of issues 14 and 15: every `gpu` test, the fronts of the GPU backend against the
# tree before the change (.base: `git archive 759a9f6`), a CLI run on the GPU, and the figures that must
# not get slower, before and after side by side (scripts/speed_compare.py). Logs and reports go to $OUT.
set -uo pipefail
source scripts/device_env.sh
lscpu | grep -E "^(Model name|CPU\(s\))" | tee "$OUT/lscpu.txt"
timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf 2>&1 | tee "$OUT/gpu_tests.log" | tail -25
timeout -s INT ${SMOKE_LIMIT:-60} python3 cli.py run 020_10_01 -i 300 -o /tmp/smoke 2>&1 | tail -4
timeout ${FRONTS_LIMIT:-200} python3 scripts/same_fronts.py .base --backend gpu 2>&1 | cut -c1-160 | tee "$OUT/same_fronts_gpu.txt"
timeout ${SPEED_LIMIT:-240} python3 scripts/speed_compare.py .base --repeats ${REPEATS:-1} --out "$OUT/speed" 2>&1 | tail -25
