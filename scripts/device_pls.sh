#!/usr/bin/env bash
# Issue 17's PLS round: the gpu tests of the archives, the flowshop kernels and the searches (every gpu test
# with ALL=1; none with TESTS=0), then before (.base) and after for PLS and tabu on the GPU (scripts/ab_search.py).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
mkdir -p "$OUT"
if [ "${ALL:-0}" = 1 ]; then TESTS=""; else
  TESTS="tests/archive tests/problems/test_flowshop_gpu.py tests/search/test_gpu_search.py"; fi
if [ "${RUN_TESTS:-1}" = 1 ]; then
  timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf $TESTS 2>&1 \
    | tee "$OUT/gpu_tests.log" | tail -15
fi
[ "${AB:-1}" = 1 ] || exit 0
while read -r args; do
  [ -n "$args" ] || continue
  echo "# $args backend=gpu iterations=10000" | tee -a "$OUT/ab_pls.txt"
  python3 scripts/ab_search.py .base . --repeats ${REPEATS:-3} $args backend=gpu iterations=10000 \
    2>&1 | tee -a "$OUT/ab_pls.txt"
done <<< "${CONFIGS:-instance=200_20_01 algorithm=pls variant=nondominated
instance=200_20_01 algorithm=pls variant=dominating
instance=020_10_01 algorithm=pls variant=nondominated
instance=020_10_01 algorithm=pls variant=dominating
instance=020_10_01 algorithm=tabu
instance=200_20_01 algorithm=tabu}"
