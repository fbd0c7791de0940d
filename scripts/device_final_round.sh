#!/usr/bin/env bash
# The session's last device round, part B: mols bench gpu-techniques (issue 22), then issue 17's targets before
# (.base) and after, with the default (tuned) launches. Part A is `ALL=1 AB=0 bash scripts/device_ab.sh`.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout -s INT ${BENCH_LIMIT:-270} python3 cli.py bench gpu-techniques --repeats ${REPEATS:-30} \
  -o "$OUT/gpu-techniques" 2>&1 | tee "$OUT/bench_gpu_techniques.log" | tail -50
RUN_TESTS=0 LOG=ab_final_tuned.log REPEATS=3 CONFIGS="instance=tai100a problem=qap algorithm=tabu
instance=200_20_01 variant=dominating
instance=200_20_01 variant=nondominated
instance=200_20_01 algorithm=tabu
instance=020_10_01 algorithm=tabu" bash scripts/device_ab.sh 2>&1 | tail -15
