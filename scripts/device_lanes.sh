#!/usr/bin/env bash
# Issue 17's lanes round: the gpu tests of the walks, selection and searches (or every gpu test with ALL=1),
# then before (.base) and after for tabu searches on the GPU (scripts/ab_search.py, alternating processes).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
mkdir -p "$OUT"
if [ "${ALL:-0}" = 1 ]; then TESTS=""; else
  TESTS="tests/problems/test_qap_gpu.py tests/problems/test_flowshop_gpu.py tests/search/test_gpu_search.py
         tests/backends/test_gpu.py tests/problems/test_weierstrass_gpu.py tests/problems/test_ppp_gpu.py"; fi
timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf $TESTS 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -15
[ "${AB:-1}" = 1 ] || exit 0
for args in "instance=020_10_01" "instance=200_20_01" "instance=tai100a problem=qap" \
            "instance=KC30-3fl-1uni problem=mqap"; do
  echo "# $args algorithm=tabu backend=gpu iterations=10000" | tee -a "$OUT/ab_lanes.txt"
  python3 scripts/ab_search.py .base . --repeats ${REPEATS:-3} $args algorithm=tabu backend=gpu iterations=10000 \
    2>&1 | tee -a "$OUT/ab_lanes.txt"
done
