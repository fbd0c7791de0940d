#!/usr/bin/env bash
# Issue 19 on the two- (or four-) GPU device, about 7 minutes: the gpu tests of mols multistart and of the batches
# it reuses, then mols bench multistart twice:
#   1. the target: 20 ITS searches of 100,000 iterations on tai100a (about a second each on one H200),
#      one GPU against all GPUs, one search per task and batched (target: x1.95 on two GPUs, x3.8 on four);
#   2. Table 5: tai12a ... tai256c, 20 ITS searches of the paper's 10,000 iterations, and 20 PLS searches of
#      1,000 iterations on 200_20_01, on one core, all cores, one GPU and all GPUs (CPU searches capped at
#      CPU_MOVES neighbors, their time extrapolated: "est.").
# Each bench rewrites its report after every cell: a part cut short by its timeout keeps what it measured. The
# benches write under /tmp/ms; their reports come back in $OUT (the two Markdown files, and every file in
# multistart.tgz). Run from the repository root (with .whl/ carried: dask, distributed):
#   OUT=/tmp/out bash scripts/device_multistart.sh
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
WORK=/tmp/ms; mkdir -p $WORK; nproc
timeout -s INT ${TESTS_LIMIT:-120} python3 -m pytest -q -m gpu -p no:cacheprovider -rf tests/test_multistart.py \
  tests/test_batch.py tests/search/test_batch_search.py 2>&1 | tee "$OUT/gpu_tests.log" | tail -15
timeout -s INT ${TARGET_LIMIT:-170} python3 cli.py bench multistart --instances tai100a -k 20 \
  -i ${TARGET_ITERATIONS:-100000} --columns gpu1,gpu --no-flowshop --repeats ${TARGET_REPEATS:-3} \
  -o $WORK/tai100a 2>&1 | tee $WORK/bench_tai100a.log | grep -v '^  ' | tail -25
timeout -s INT ${TABLE_LIMIT:-300} python3 cli.py bench multistart -k 20 -i ${ITERATIONS:-10000} \
  --repeats ${REPEATS:-1} --cpu-moves ${CPU_MOVES:-2e5} --pls-iterations ${PLS_ITERATIONS:-1000} \
  -o $WORK/table 2>&1 | tee $WORK/bench_table.log | grep -v '^  ' | tail -45
cp $WORK/tai100a/multistart.md "$OUT/tai100a.md"; cp $WORK/table/multistart.md "$OUT/table5.md"
(cd $WORK && tar czf "$OUT/multistart.tgz" --exclude=scratch .)
