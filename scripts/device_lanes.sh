#!/usr/bin/env bash
# Issue 17's lanes round (scripts/device_ab.sh): the gpu tests of the walks, selection and searches, then
# tabu searches on the GPU before and after.
export TESTS=${TESTS-"tests/problems/test_qap_gpu.py tests/problems/test_flowshop_gpu.py tests/search/test_gpu_search.py
  tests/backends/test_gpu.py tests/problems/test_weierstrass_gpu.py tests/problems/test_ppp_gpu.py"} LOG=ab_lanes.txt
export CONFIGS=${CONFIGS:-"instance=020_10_01 algorithm=tabu
instance=200_20_01 algorithm=tabu
instance=tai100a problem=qap algorithm=tabu
instance=KC30-3fl-1uni problem=mqap algorithm=tabu"}
exec bash scripts/device_ab.sh
