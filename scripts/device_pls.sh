#!/usr/bin/env bash
# Issue 17's PLS rounds (scripts/device_ab.sh): the gpu tests of the archives, the flowshop kernels and the
# searches, then PLS and tabu on the GPU before and after.
export TESTS=${TESTS-"tests/archive tests/problems/test_flowshop_gpu.py tests/search/test_gpu_search.py"} LOG=ab_pls.txt
export CONFIGS=${CONFIGS:-"instance=200_20_01 algorithm=pls variant=nondominated
instance=200_20_01 algorithm=pls variant=dominating
instance=020_10_01 algorithm=pls variant=nondominated
instance=020_10_01 algorithm=pls variant=dominating
instance=020_10_01 algorithm=tabu
instance=200_20_01 algorithm=tabu"}
exec bash scripts/device_ab.sh
