#!/usr/bin/env bash
# Issue 17's device round: the gpu tests of the walks, selection and backends (or every gpu test with
# ALL=1), then before (.base) and after for the tabu walks on the device (scripts/ab_search.py, 3
# alternating processes each) and where a walk's step time goes (scripts/walk_profile.py). Logs in $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
mkdir -p "$OUT"
if [ "${ALL:-0}" = 1 ]; then TESTS=""; else
  TESTS="tests/problems/test_qap_gpu.py tests/problems/test_flowshop_gpu.py tests/problems/test_weierstrass_gpu.py
         tests/search/test_gpu_search.py tests/backends/test_gpu.py tests/problems/test_ppp_gpu.py"; fi
timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -p no:cacheprovider -rf $TESTS 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -8
for args in "instance=020_10_01" "instance=200_20_01" "instance=tai100a problem=qap" \
            "instance=10:float32 problem=weierstrass"; do
  echo "# $args algorithm=tabu backend=gpu iterations=10000" | tee -a "$OUT/ab_walks.txt"
  python3 scripts/ab_search.py .base . --repeats ${REPEATS:-3} $args algorithm=tabu backend=gpu iterations=10000 \
    2>&1 | tee -a "$OUT/ab_walks.txt"
done
python3 scripts/walk_profile.py 020_10_01 200_20_01 2>&1 | tee "$OUT/walk_profile.txt"
python3 scripts/walk_profile.py tai100a --problem qap 2>&1 | tee -a "$OUT/walk_profile.txt"
