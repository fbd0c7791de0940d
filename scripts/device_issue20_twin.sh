#!/usr/bin/env bash
# Issue 20, the paper's speed-up at equal quality: the GPU parity tests of ILS-3opt, then mols bench ils3opt with
# --twin (each run's first solutions again on 1 core: the same search, the same tours), each instance with a
# population that reaches the quality within 60 s. Each part's log and report come back in $OUT.
# Run from the repository root on the one-GPU device: OUT=/tmp/out bash scripts/device_issue20_twin.sh
# Knobs: PARTS (of tests,small,fl1577,pcb3038), TESTS_LIMIT, RUNS, PCB_RUNS, SMALL (GPU populations on kroA100, lin318, rat783), FL (fl1577's), PCB (pcb3038's),
# PCB_SOLVERS.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1 || export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/i20
start=$(date +%s)
parts=${PARTS:-tests,small,fl1577,pcb3038}
[[ $parts == *tests* ]] && timeout ${TESTS_LIMIT:-150} python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/search/test_ils3opt_gpu.py \
  tests/problems/test_tsp_gpu.py 2>&1 | tee "$OUT/ils_gpu_tests.log" | tail -5
bench() {  # name instances solvers populations twin runs: the log and the report into $OUT as they come
  timeout -k 20 -s INT ${BENCH_LIMIT:-300} python3 -u cli.py bench ils3opt --instances "$2" --solvers "$3" \
    --populations "$4" --cpu-populations 1 --runs "$6" --iterations 2000000000 --time 60 --cpu-time 10 --twin "$5" \
    -o "/tmp/i20/$1" > "$OUT/$1.log" 2>&1
  grep -E "^\||rror" "$OUT/$1.log" | tail -12; cp "/tmp/i20/$1/ils3opt.md" "$OUT/$1.md" 2>/dev/null
  echo "$1: $(( $(date +%s) - start )) s"
}
[[ $parts == *small* ]] && bench small kroA100,lin318,rat783 cpu1,fi-block-shared ${SMALL:-2048} 8 ${RUNS:-3}
[[ $parts == *fl1577* ]] && bench fl1577 fl1577 cpu1,fi-block-shared ${FL:-2048} 8 ${RUNS:-3}
[[ $parts == *pcb3038* ]] && bench pcb3038 pcb3038 cpu1,${PCB_SOLVERS:-fi-block,fi-block-shared} ${PCB:-256} 4 ${PCB_RUNS:-2}
