#!/usr/bin/env bash
# Issues 17-18, last round: gpu tests of the population kernels, objective subsets and the flowshop kernels; the
# tabu and PLS figures before (.base) and after (scripts/ab_search.py); mols bench pymoo on the GPU. All into $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
python3 -c "import scipy" 2>/dev/null || python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/extra/*.whl
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/backends/test_population.py \
  tests/search/test_objectives_gpu.py tests/problems/test_flowshop_gpu.py 2>&1 | tee "$OUT/gpu_tests.log" | tail -4
for args in "instance=020_10_01 algorithm=tabu" "instance=200_20_01 algorithm=pls"; do
  echo "# $args" | tee -a "$OUT/ab.log"
  timeout 100 python3 scripts/ab_search.py .base . --repeats 3 $args backend=gpu iterations=10000 2>&1 | tee -a "$OUT/ab.log" | tail -3
done
timeout 260 python3 cli.py bench pymoo --seeds 2 -o "$OUT/pymoo" 2>&1 | tee "$OUT/pymoo.log" | tail -32
