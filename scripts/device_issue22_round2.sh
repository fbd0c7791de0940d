#!/usr/bin/env bash
# Issue 22, round 2: the tuner times whole iterations (default launch and fixed blocks). The gpu tests of the
# techniques, then mols bench gpu-techniques (Tables 7-9 and the memory variants); its report comes back in
# $OUT/gpu-techniques.tgz. Run from the repository root on the one-GPU device (with .whl/ carried).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
timeout -s INT ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/backends/test_techniques_gpu.py \
  tests/bench/test_gpu_techniques.py ${TESTS_K:+-k "$TESTS_K"} 2>&1 | tee "$OUT/gpu_tests.log" | tail -8
PYTHONPATH=$PYTHONPATH python3 scripts/probe_tuner.py qap tai100a swap 2>&1 | tee "$OUT/probe_tuner.log" | head -60
timeout -s INT ${BENCH_LIMIT:-280} python3 cli.py bench gpu-techniques --repeats ${REPEATS:-30} -o /tmp/gt 2>&1 \
  | tee /tmp/gt.log | tail -45
cp /tmp/gt.log /tmp/gt/bench.log; tar czf "$OUT/gpu-techniques.tgz" -C /tmp gt
# Issue 20 on the side: pcb3038 to 0.2 % above the optimum (137,694 -> 137,969), 60 s at most, the GPU (a block per
# solution, 256 solutions) and one core side by side.
(python3 cli.py run pcb3038 -p tsp -a ils --strategy fi-block --population 256 --time 60 --target 137969 \
   -o /tmp/pcb-gpu > /tmp/pcb_gpu.log 2>&1 &
 python3 cli.py run pcb3038 -p tsp -a ils --strategy cpu --threads 1 --population 1 --time 60 --target 137969 \
   -o /tmp/pcb-cpu1 > /tmp/pcb_cpu1.log 2>&1; wait)
tail -n 4 /tmp/pcb_gpu.log /tmp/pcb_cpu1.log | tee "$OUT/pcb3038.log"; cp /tmp/pcb-gpu/run.json "$OUT/pcb_gpu_run.json"; cp /tmp/pcb-cpu1/run.json "$OUT/pcb_cpu1_run.json"
