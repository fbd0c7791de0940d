#!/usr/bin/env bash
# Issue 20, merged rounds (ils_merge): the ILS GPU parity tests, the plain kernels before (.base: the session's first
# tree) and after, alternating, then merged rounds to the issue's qualities. Logs and reports come back in $OUT.
# Run from the repository root on the one-GPU device: OUT=/tmp/out bash scripts/device_issue20_merge.sh
# Knobs: PARTS (of probe,tests,ab,pcb3038,small,twin,final_pcb,final_small,final_tiny,long_cpu1,islands), AB (the
# cases, ;-separated), LONG_CPU1, ISLANDS, PCB (pcb3038's merged populations, islands of 512), SMALL (rat783's, fl1577's),
# SMALL_ISLAND, SMALL_RUNS, TWIN_PCB (the twin's population on pcb3038), RUNS, CPU_POP, CPU_TIME, CPU_RUNS, FINAL_PCB
# (final_pcb's GPU solvers), FINAL_PCB_POP, FINAL_SOLVERS (final_small's and final_tiny's GPU solvers).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1 || export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/i20
start=$(date +%s)
parts=${PARTS:-tests,ab,pcb3038,small}
stamp() { echo "$1: $(( $(date +%s) - start )) s"; }
if [[ $parts == *long_cpu1* ]]; then  # beside the rest: one core's run of pcb3038 towards 0.2 %, LONG_CPU1 seconds
  timeout -k 20 $(( ${LONG_CPU1:-500} + 60 )) python3 -c "
import json; from mols.problems.tsp import load_tsp; from mols.search.ils3opt import run_ils3opt
r = run_ils3opt(load_tsp('pcb3038'), 'cpu', 1, None, ${LONG_CPU1:-500}, 137969, seed=0, threads=1)
print(json.dumps({'best': r.best, 'gap %': 100 * (r.best / 137694 - 1), 'seconds': r.seconds, 'reached': r.reached_seconds,
                  'iterations': r.total_iterations, 'it/s': r.total_iterations / r.seconds}))" > "$OUT/long_cpu1.log" 2>&1 &
  long=$!
fi
if [[ $parts == *probe* ]]; then  # registers and blocks per multiprocessor against speed (probe_ils_occupancy.py)
  timeout -k 20 -s INT 300 python3 scripts/probe_ils_occupancy.py pcb3038 fi-block 2048,4096,8192 --rounds 3 \
    --configs 64:0,64:8,64:12,64:16,32:0,32:16,32:24,32:32 > "$OUT/occupancy_pcb3038.log" 2>&1
  timeout -k 20 -s INT 200 python3 scripts/probe_ils_occupancy.py rat783 fi-block-shared 2048,4096 --island 128 \
    --rounds 3 --configs 64:0,64:8,64:12,32:0,32:16,32:24 > "$OUT/occupancy_rat783.log" 2>&1
  stamp probe
fi
[[ $parts == *tests* ]] && timeout ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -rf \
  tests/search/test_ils3opt_gpu.py > "$OUT/ils_gpu_tests.log" 2>&1; tail -3 "$OUT/ils_gpu_tests.log"; stamp tests
if [[ $parts == *ab* ]]; then
  IFS=';' read -ra cases <<< "${AB:-pcb3038 fi-block-shared 256 200;rat783 fi-block-shared 2048 100}"
  for c in "${cases[@]}"; do
    timeout 200 python3 scripts/ab_ils.py .base . --repeats 3 $c >> "$OUT/ab.log" 2>&1
  done
  grep " = " "$OUT/ab.log"; stamp ab
fi
bench() {  # name instances solvers populations runs time twin island: the log and the report into $OUT as they come
  timeout -k 20 -s INT ${BENCH_LIMIT:-300} python3 -u cli.py bench ils3opt --instances "$2" --solvers "$3" \
    --populations "$4" --cpu-populations "${CPU_POP:-1}" --runs "$5" --iterations 2000000000 --time "$6" \
    --cpu-time "${CPU_TIME:-60}" --cpu-runs "${CPU_RUNS:-$5}" --twin "$7" --island "$8" -o "/tmp/i20/$1" \
    > "$OUT/$1.log" 2>&1
  grep -E "^\||rror" "$OUT/$1.log" | tail -12; cp "/tmp/i20/$1/ils3opt.md" "$OUT/$1.md" 2>/dev/null
  stamp "$1"
}
[[ $parts == *pcb3038* ]] && bench merge_pcb3038 pcb3038 fi-block-shared-merged ${PCB:-512,2048} ${RUNS:-3} 60 0 512
[[ $parts == *small* ]] && bench merge_small rat783,fl1577 fi-block-shared-merged ${SMALL:-2048} ${SMALL_RUNS:-1} 30 0 \
  ${SMALL_ISLAND:-128}
[[ $parts == *twin* ]] && bench merge_twin pcb3038 ${TWIN_SOLVERS:-cpu1,fi-block-shared-merged} ${TWIN_PCB:-512} \
  ${RUNS:-1} 60 1 512
# The report's rows: each instance with its fastest GPU search at the issue's quality, its twin, and 1-core runs.
[[ $parts == *final_pcb* ]] && CPU_POP=${CPU_POP:-1,64} CPU_RUNS=1 CPU_TIME=${CPU_TIME:-60} BENCH_LIMIT=560 \
  bench final_pcb3038 pcb3038 cpu1,${FINAL_PCB:-cpu1-merged,fi-block-shared-merged} ${FINAL_PCB_POP:-2048} 3 60 8 512
final=${FINAL_SOLVERS:-fi-block-shared,fi-block-shared-merged}
[[ $parts == *final_small* ]] && CPU_RUNS=3 CPU_TIME=10 bench final_rat783_fl1577 rat783,fl1577 \
  cpu1,$final 2048 3 60 8 128
[[ $parts == *final_tiny* ]] && CPU_RUNS=3 CPU_TIME=10 bench final_kroA100_lin318 kroA100,lin318 \
  cpu1,${final%%,*} 2048 3 60 8 128
if [[ $parts == *islands* ]]; then  # pcb3038: 512 solutions (the triples' search) in islands of 128 and 256
  for i in ${ISLANDS:-128 256}; do bench "islands_pcb3038_$i" pcb3038 fi-block-shared-merged 512 3 60 8 $i; done
fi
[[ -n ${long:-} ]] && wait $long && cat "$OUT/long_cpu1.log"
exit 0
