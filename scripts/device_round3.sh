#!/usr/bin/env bash
# Issue 17's walk round (scripts/device_ab.sh): the gpu tests of the walks, selection and backends, tabu walks
# on the device before and after, then where a walk's step time goes (scripts/walk_profile.py).
export TESTS=${TESTS-"tests/problems/test_qap_gpu.py tests/problems/test_flowshop_gpu.py
  tests/problems/test_weierstrass_gpu.py tests/search/test_gpu_search.py tests/backends/test_gpu.py
  tests/problems/test_ppp_gpu.py"} LOG=ab_walks.txt
export CONFIGS=${CONFIGS:-"instance=020_10_01 algorithm=tabu
instance=200_20_01 algorithm=tabu
instance=tai100a problem=qap algorithm=tabu
instance=10:float32 problem=weierstrass algorithm=tabu"}
bash scripts/device_ab.sh
source scripts/device_env.sh >/dev/null 2>&1
python3 scripts/walk_profile.py 020_10_01 200_20_01 2>&1 | tee "$OUT/walk_profile.txt"
python3 scripts/walk_profile.py tai100a --problem qap 2>&1 | tee -a "$OUT/walk_profile.txt"
