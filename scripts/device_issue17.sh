#!/usr/bin/env bash
# Issue 17 on the device: the gpu tests of TESTS, then 1,024 tabu searches against one search before (.base) and
# after (scripts/probe_batch.py, 320 and 10,000 steps), then where PLS's time goes on PLS_INSTANCES
# (scripts/pls_profile.py, when set), into $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf ${TESTS:-tests/search \
  tests/problems/test_flowshop_gpu.py tests/problems/test_qap_gpu.py tests/problems/test_tsp_gpu.py} 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -4
for steps in ${STEPS:-320 10000}; do
  for side in .base . .base .; do
    echo "# $side" | tee -a "$OUT/batch_probe.log"
    (cd "$side" && PYTHONPATH=$PWD:/tmp/site timeout 100 python3 "$OLDPWD/scripts/probe_batch.py" --steps $steps) 2>&1 \
      | tee -a "$OUT/batch_probe.log" | tail -3
  done
done
[ -n "${PLS_INSTANCES:-}" ] && timeout 200 python3 scripts/pls_profile.py $PLS_INSTANCES 2>&1 | tee "$OUT/pls_profile.log"
exit 0
