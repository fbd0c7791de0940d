#!/usr/bin/env bash
# Issue 22, round 3: the tuner compares device time per iteration (CUDA events around replays of the iteration graph). The gpu tests of the
# techniques, then mols bench gpu-techniques (Tables 7-9 and the memory variants); its report comes back in
# $OUT/gpu-techniques.tgz. Run from the repository root on the one-GPU device (with .whl/ carried).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/backends/test_techniques_gpu.py \
  tests/bench/test_gpu_techniques.py ${TESTS_K:+-k "$TESTS_K"} 2>&1 | tee "$OUT/gpu_tests.log" | tail -8
for c in "qap tai100a swap" "flowshop 200_20_01 insertion"; do python3 scripts/probe_tuner.py $c 2>&1 | head -6; done | tee "$OUT/probe_tuner.log"
timeout -s INT ${BENCH_LIMIT:-280} python3 cli.py bench gpu-techniques --repeats ${REPEATS:-30} -o /tmp/gt 2>&1 \
  | tee /tmp/gt.log | tail -45
cp /tmp/gt.log /tmp/gt/bench.log; tar czf "$OUT/gpu-techniques.tgz" -C /tmp gt
