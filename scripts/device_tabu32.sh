#!/usr/bin/env bash
# The device round of the 32-bit tabu memory: every gpu test, then before (.base: the commit before) and
# after for the figures whose selection reads the tabu memory (scripts/ab_search.py). Logs in $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
mkdir -p "$OUT"
timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf 2>&1 | tee "$OUT/gpu_tests.log" | tail -4
for args in "instance=tai100a problem=qap iterations=10000" "instance=rl5915 problem=tsp neighborhood=swap iterations=2000" \
            "instance=random:15000:1 problem=tsp iterations=60"; do
  echo "# $args algorithm=tabu backend=gpu" | tee -a "$OUT/ab_tabu32.txt"
  timeout 150 python3 scripts/ab_search.py .base . --repeats ${REPEATS:-2} $args algorithm=tabu backend=gpu 2>&1 \
    | tee -a "$OUT/ab_tabu32.txt"
done
