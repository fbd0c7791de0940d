#!/usr/bin/env bash
# Issue 17, the batch's host side taken for all lanes at once: the gpu tests of walks, lanes and batches (none
# with RUN_TESTS=0), then batches of tabu searches (scripts/batch_ab.py) before (.base) and after (the working
# tree), alternating, every line in $OUT/batch_ab.log.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
if [ "${RUN_TESTS:-1}" = 1 ]; then
  timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf ${TESTS:-tests/search \
    tests/problems/test_flowshop_gpu.py tests/problems/test_qap_gpu.py tests/problems/test_tsp_gpu.py \
    tests/archive/test_resident.py} 2>&1 | tee "$OUT/gpu_tests.log" | tail -5
fi
ROOT=$PWD
for round in 1 2; do
  for side in .base .; do
    echo "# $side round $round" | tee -a "$OUT/batch_ab.log"
    (cd "$side" && PYTHONPATH=$PWD:/tmp/site timeout 150 python3 "$ROOT/scripts/batch_ab.py" \
      ${INSTANCES:-020_10_01,kroA100} ${SIZES:-1,1024} 320 3) 2>&1 | tee -a "$OUT/batch_ab.log" | tail -4
  done
done
