#!/usr/bin/env bash
# One device round: gpu tests (TESTS, or every gpu test with ALL=1; none with RUN_TESTS=0), then each line of
# CONFIGS (RunConfig fields as name=value) timed before (.base, a `git archive` of the base commit) and after
# (the working tree) with scripts/ab_search.py, REPEATS alternating processes each, 10,000 iterations on the
# GPU (none with AB=0). Logs in $OUT: gpu_tests.log and $LOG.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
mkdir -p "$OUT"
[ "${ALL:-0}" = 1 ] && TESTS=""
if [ "${RUN_TESTS:-1}" = 1 ]; then
  timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf ${TESTS-} 2>&1 \
    | tee "$OUT/gpu_tests.log" | tail -15
fi
[ "${AB:-1}" = 1 ] || exit 0
while read -r args; do
  [ -n "$args" ] || continue
  echo "# $args backend=gpu iterations=10000" | tee -a "$OUT/$LOG"
  python3 scripts/ab_search.py .base . --repeats ${REPEATS:-3} $args backend=gpu iterations=10000 \
    2>&1 | tee -a "$OUT/$LOG"
done <<< "$CONFIGS"
