source scripts/device_env.sh >/dev/null 2>&1
timeout 240 python3 -m pytest -x -q -m gpu -p no:cacheprovider -rf tests/archive tests/search/test_pls.py tests/search/test_gpu_search.py tests/problems/test_flowshop_gpu.py tests/search/test_budgets_gpu.py tests/search/test_objectives_gpu.py 2>&1 | tee $OUT/gpu_tests.log | tail -3
for v in nondominated dominating; do
  for base in .prev .base; do
    echo "# $base variant=$v" | tee -a $OUT/ab.log
    python3 scripts/ab_search.py $base . --repeats 3 instance=200_20_01 variant=$v backend=gpu iterations=10000 2>&1 | tee -a $OUT/ab.log
  done
done
timeout 100 python3 scripts/pls_profile.py 200_20_01 2>&1 | tee $OUT/pls_profile.log
