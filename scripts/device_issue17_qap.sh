#!/usr/bin/env bash
# Issue 17 on the device: the QAP's whole-step walk kernel (qap_walk_step): the gpu tests of QAP walks, lanes and
# batches, then QAP tabu 10,000 iterations before (.base, .prev) and after (scripts/ab_search.py), into $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout 200 python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf tests/problems/test_qap_gpu.py \
  tests/search/test_batch_search.py tests/search/test_gpu_search.py tests/backends/test_select.py 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -3
for base in .prev .base; do
  for instance in tai100a tai50a; do
    echo "# $base instance=$instance" | tee -a "$OUT/ab.log"
    python3 scripts/ab_search.py $base . --repeats 3 instance=$instance problem=qap algorithm=tabu backend=gpu \
      iterations=10000 2>&1 | tee -a "$OUT/ab.log"
  done
done
