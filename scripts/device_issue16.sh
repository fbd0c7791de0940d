#!/usr/bin/env bash
# The device round of issue 16 (PPP, coloring, Weierstrass; hc, ils, targets). PHASE=tests: every `gpu`
# test, a CLI run of each new problem on the GPU and the selection times of the largest cases; with
# BENCH=ppp, weierstrass or both also `mols bench ppp` and/or `mols bench weierstrass`; PHASE=speed: the
# figures that must not get slower, before (.base: `git archive` of the commit before) and after side by
# side (scripts/speed_compare.py).
# Logs and reports go to $OUT.
set -uo pipefail
source scripts/device_env.sh
lscpu | grep -E "^(Model name|CPU\(s\))" | tee "$OUT/lscpu.txt"
if [ "${PHASE:-tests}" = tests ]; then
  timeout -s INT ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -p no:cacheprovider -rf ${TESTS:-} 2>&1 \
    | tee "$OUT/gpu_tests.log" | tail -30
  for args in "101-117 -p ppp -a tabu -n hamming2" "queen6_6:8 -p coloring -a ils" "10:float32 -p weierstrass -a tabu"; do
    timeout -s INT 60 python3 cli.py run $args -i 2000 -o "/tmp/smoke/${args%% *}" 2>&1 | grep -v "^mols:" | head -4
  done
  python3 -c "
import time, numpy as np, mols
from mols.problems import load_problem
for inst, nbh in (('1301-1317', 'hamming2'), ('1301-1317', 'hamming1'), ('401-417', 'hamming3')):
    pb = load_problem('ppp', inst); ev = mols.prepare(pb, mols.get_neighborhood(nbh), 'gpu')
    x = pb.random_solution(np.random.default_rng(0)); c = np.ones(1)
    for _ in range(3): ev.best_weighted(x, c, 0, -np.inf)
    t = time.perf_counter(); [ev.best_weighted(x, c, 0, -np.inf) for _ in range(50)]
    print(inst, nbh, f'{(time.perf_counter() - t) / 50 * 1e3:.3f} ms per selection', flush=True)
for prec in ('float32', 'float64'):
    pb = load_problem('weierstrass', '10:' + prec); ev = mols.prepare(pb, mols.get_neighborhood('crowns'), 'gpu')
    x = pb.random_solution(np.random.default_rng(0)); c = np.ones(1); key = np.array([1, 2], np.uint64)
    for _ in range(3): ev.best_weighted(x, c, 0, -np.inf, key)
    t = time.perf_counter(); [ev.best_weighted(x, c, 0, -np.inf, key) for _ in range(200)]
    print('weierstrass 10', prec, f'{(time.perf_counter() - t) / 200 * 1e6:.1f} us per selection', flush=True)
" 2>&1 | tee "$OUT/quick_speed.txt"
fi
if [ "${BENCH:-none}" = ppp ] || [ "${BENCH:-none}" = both ]; then
  timeout -s INT ${PPP_LIMIT:-300} python3 cli.py bench ppp --cpu-moves ${CPU_MOVES:-2000000} -i ${PPP_ITERATIONS:-1000} \
    --runs ${RUNS:-30} --run-iterations ${RUN_ITERATIONS:-10000} -o "$OUT/ppp" 2>&1 | tail -60
fi
if [ "${BENCH:-none}" = weierstrass ] || [ "${BENCH:-none}" = both ]; then
  timeout -s INT ${W_LIMIT:-200} python3 cli.py bench weierstrass -i ${W_ITERATIONS:-10000} -o "$OUT/weierstrass" 2>&1 | tail -40
fi
if [ "${PHASE:-tests}" = speed ]; then
  timeout ${SPEED_LIMIT:-300} python3 scripts/speed_compare.py .base --repeats ${REPEATS:-2} --out "$OUT/speed" 2>&1 | tail -25
fi
if [ "${CPU1:-0}" = 1 ]; then
  timeout ${CPU1_LIMIT:-120} python3 scripts/cpu1_check.py .base --repeats ${CPU1_REPEATS:-5} 2>&1 | tee "$OUT/cpu1_check.txt"
fi
