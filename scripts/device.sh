#!/usr/bin/env bash
# The device runner: `bash scripts/device.sh SUITE [SUITE...]` from the repository root on a GPU machine. Each
# suite writes into $OUT (default /tmp/out); reports/README.md says which report each one refreshes.
#
#   tests        every gpu test (or those under $TESTS, e.g. TESTS="tests/search tests/archive"), into
#                $OUT/gpu_tests.log; WORKERS=N: in N processes (pytest-xdist, carried as a wheel)
#   headline     before and after against $BASE (default .base: an earlier tree, e.g. `git worktree add .base
#                COMMIT`): the suites speed, then fronts, into $OUT/headline
#   speed        scripts/speed_compare.py against $BASE ($REPEATS, default 3; GPU_ONLY=1: the GPU figures only)
#   fronts       scripts/same_fronts.py --backend gpu against $BASE
#   ils          mols bench ils3opt: the three runs of reports/ils3opt (kroA100 and lin318, rat783 and fl1577,
#                pcb3038), into $OUT/ils3opt
#   d12          mols bench ils3opt --paper in parts (PART=seq, fi-small, fi-mid, fi-pcb, fi-low, fi-low-fl, rkbi-a,
#                rkbi-b; default seq), each cut at D12_SECONDS (default 570) with the cells done, into
#                $OUT/ils3opt_paper/; PART=a,b,c,d runs the parts side by side, one GPU each; then
#                `mols bench ils3opt --paper --combine $OUT/ils3opt_paper` makes one report of them
#   multistart   mols bench multistart on every GPU: tai100a on one GPU and all, then Table 5
#   multistart-gpus  1,000 ITS searches of 10,000 iterations on tai100a, batched, on one GPU and on all (5 repeats),
#                into $OUT/multistart-gpus/after, and where each cell's time went; first the same before, in $BASE,
#                where that tree exists
#   cluster      mols bench cluster: L13 Tables 10-11, PPP Hamming 2 on 1 ... 2 x cores CPU workers against one GPU
#   batch        mols bench batch: searches sharing each launch, and weight vectors side by side
#   techniques   mols bench gpu-techniques (Tables 7-9, memory) and mols bench neighborhood; CASES=qap (ppp, tsp,
#                flowshop, comma-separated): gpu-techniques of those alone, as one call fits
#   qap, tsp, ppp, weierstrass, q3ap   the papers' tables (mols bench NAME), into $OUT/NAME
#   q3ap-fig2    the Q3AP paper's Fig. 2 alone, as the paper sets it (nug15, 11,025 advanced iterations), 10 seeds,
#                then on a random general instance (random:15:1)
#   fsp          mols bench fsp at 1,000 iterations (FSP_BACKENDS, default cpu1,cpu,gpu: hours on one core) and
#                at 10,000 on the GPU
#   archive      mols bench archive (the filter), and whole PLS runs with the archive on the device and the host
#   pls          mols bench natural-end on the GPU
#   peers        mols bench peers, a run per domain into $OUT/peers/DOMAIN: mols against fast-tsp and LKH-3
#                (elkai), CMA-ES and dual annealing, pymoo's NSGA-II/III, ITS, at 1, 2, 5 s over 3 seeds, mols one per GPU
#                (GPUS, default: all visible); DOMAINS="tsp qap": those alone; PEERS="..." replaces the other options
#                (needs the wheels of fast_tsp, elkai and cma in .whl/; fast-tsp 0.2 or newer)
#   elite        -a elite against issue 40's QAP goals (reports/qap/): its gpu tests, then INSTANCES (default tai50a
#                tai100a) with 256 walks for ELITE_SECONDS (default 20), SEEDS seeds (default 5) from SEED0 (default 0),
#                each of VARIANTS (a file of NAME|FLAGS lines, e.g. "rots|--tenures 0.9,1.1"; default: the defaults),
#                one run per GPU at a time, into $OUT/elite/summary.txt and the medians into $OUT/elite/medians.txt
#   pymoo        mols bench pymoo --seeds 2
#   startup      mols bench startup
#   anytime      mols bench anytime: what the trace and checkpoints cost (issue 39's three runs), into $OUT/anytime
#   split        mols bench multi-gpu: one tabu search over 1, 2 and 4 GPUs (TSP 2-opt 100,000 cities, PPP H3 1301-1317)
#
# PACK=1 packs $OUT into $OUT/results.tgz at the end (a device call returns only so many files).
#
# First, as every device call needs: the wheels carried in .whl/ installed into /tmp/site (.whl/extra/ too where
# scipy is missing), PYTHONPATH=$PWD:/tmp/site, PYTHONUNBUFFERED=1, and the card in $OUT/nvidia-smi.txt. A device
# call lasts at most 10 minutes: name one or two suites per call.
set -uo pipefail
[ $# -gt 0 ] || { awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 2; }
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
wheels() { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$@"; }
compgen -G ".whl/*.whl" >/dev/null && wheels .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site
compgen -G ".whl/extra/*.whl" >/dev/null && ! python3 -c "import scipy" 2>/dev/null && wheels .whl/extra/*.whl
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
# The device sets PYTHONDONTWRITEBYTECODE: compile once, as an install does, so that timings do not include it.
python3 -m compileall -q -j 8 mols ${BASE:-.base}/mols /tmp/site > /dev/null 2>&1

mols() { python3 -m mols "$@"; }
# The batched cells of `mols bench multistart` in a tree older than its --modes (the multistart-gpus suite's before)
BASE_BATCHED='
import sys; from pathlib import Path; from mols.bench import multistart as b; from mols.parallel.executors import open_executor
case, out = b.qap_case("tai100a", 10000, 300000), Path(sys.argv[1])
for column in ("gpu1", "gpu"):
    with open_executor("dask", "gpu", b.COLUMNS[column][1]) as ex:
        per = b.modes(case, column, 1000, len(ex.workers()))[-1][1]
        r = b.measure(ex, case, column, "batched", per, b.Settings(1000, 3), out / "scratch")
        print("before", column, "batched", r["workers"], "workers:", r["seconds"], "s, range", r["seconds_min"], r["seconds_max"])
'
# Where each cell's time went besides its tasks (multistart.Timed.phases), from the bench's CSV
PHASES='
import sys, pandas as pd
keys = ["seconds", "task_seconds", "slowest_task_seconds", "lead_seconds", "tail_seconds", "task_ends_apart_seconds"]
print(pd.read_csv(sys.argv[1])[["column", "workers", *keys]].round(3).to_string(index=False))
'
# The elite suite's medians per instance and variant, from its summary's lines (elite_run)
MEDIANS='
import collections, re, statistics, sys
cells = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) (\S+) \d+ ([0-9.]+) %", line)
    if m:
        cells[m[1], m[2]].append(float(m[3]))
for (instance, name), gaps in sorted(cells.items()):
    print(instance, name, f"median {statistics.median(gaps):.3f} % over {len(gaps)} seeds:", *(f"{g:.3f}" for g in gaps))
'
fsp() {  # mols bench fsp ARGS: the runs, then the tables where pymoo imports (the same command resumes the runs)
  mols bench fsp "$@" --runs-only && if python3 -c "import pymoo" 2>/dev/null; then mols bench fsp "$@"; fi
}
ils() {  # NAME INSTANCES SOLVERS POPULATION ISLAND CPU_TIME [OPTIONS]: one bench of reports/ils3opt
  mols bench ils3opt --instances "$2" --solvers "$3" --populations "$4" --island "$5" --cpu-time "$6" "${@:7}" \
    --cpu-populations 1 --runs 3 --iterations 2000000000 --time 60 --twin 8 -o "$OUT/ils3opt/$1"
}

d12() {  # NAME SECONDS [OPTIONS]: one bench of a part of Delévacq et al. 2012's Tables 1-3 (issue 41 item 4)
  [ "$2" -gt 20 ] || { echo "d12 $1: no time left"; return 1; }
  timeout -s INT "$2" python3 -m mols bench ils3opt --paper --twin 8 -o "$OUT/ils3opt_paper/$1" "${@:3}"
}
d12_part() {  # PART: its benches in turn (the next one also after a cut one), cut at D12_SECONDS from the part's start
  local end=$((SECONDS + ${D12_SECONDS:-570})) fi=fi-thread,fi-block,fi-block-shared blocks=fi-block,fi-block-shared
  case $1 in
    seq) d12 seq $((end - SECONDS)) --solvers none --sequential cpu --time 100 ;;
    fi-small) d12 fi-small $((end - SECONDS)) --instances kroA100,lin318 --solvers $fi --populations 64,512,2048 \
                --trials 10 --time 2.5 --twin-runs 5 ;;
    fi-mid) d12 fi-mid $((end - SECONDS)) --instances rat783,fl1577 --solvers $fi --populations 512,2048 --trials 10 \
              --time 4 ;;
    # one thread descending 3,038 cities outlasts a time cap (checked between launches): fi-thread from nbsol 64
    fi-pcb) d12 fi-pcb $((end - SECONDS)) --instances pcb3038 --solvers fi-thread,fi-block --populations 64,512,2048 \
              --trials 10 --time 4 \
            ; d12 fi-pcb-low $((end - SECONDS)) --instances pcb3038 --solvers fi-block --populations 1,8 --trials 10 \
              --time 4 ;;
    fi-low) d12 fi-low $((end - SECONDS)) --instances kroA100,lin318 --solvers $blocks --populations 1,8 --trials 10 \
              --time 2.5 --twin-runs 5 \
            ; d12 fi-low-rat $((end - SECONDS)) --instances rat783 --solvers $blocks --populations 1,8,64 \
              --trials 10 --time 2.5 --twin-runs 5 ;;
    fi-low-fl) d12 fi-low-fl $((end - SECONDS)) --instances fl1577 --solvers $blocks --populations 1,8,64 --trials 10 \
                 --time 3 --twin-runs 5 \
               ; d12 fi-thread-64 $((end - SECONDS)) --instances rat783,fl1577 --solvers fi-thread --populations 64 \
                 --trials 10 --time 4 --twin-runs 5 ;;
    # one core repeats an rkbi trial's k samples a step one by one: a twin of minutes (nbsol 1 and 8: hours, none)
    rkbi-a|rkbi-b)
      local instances=kroA100,lin318,rat783 rkbi="--solvers rkbi --trials 3"
      [ "$1" = rkbi-a ] || instances=fl1577,pcb3038
      d12 "$1" $((end - SECONDS)) --instances $instances $rkbi --populations 64,512 --time 3 --twin 1 --twin-runs 1 \
      ; d12 "$1-2048" $((end - SECONDS)) --instances $instances $rkbi --populations 2048 --time 3 --twin 1 \
      ; d12 "$1-low" $((end - SECONDS)) --instances $instances $rkbi --populations 1,8 --time 1.5 --twin 0 ;;
    *) echo "PART=$1: seq, fi-small, fi-mid, fi-pcb, fi-low, fi-low-fl, rkbi-a or rkbi-b"; return 1 ;;
  esac
}
d12_parts() {  # PART=a,b,...: one part a GPU, side by side, each logged into $OUT/ils3opt_paper/PART.log
  local parts gpu=0 pids=() failed=0
  IFS=, read -ra parts <<< "${PART:-seq}"
  [ ${#parts[@]} -gt 1 ] || { d12_part "${parts[0]}"; return; }
  mkdir -p "$OUT/ils3opt_paper"
  for part in "${parts[@]}"; do
    CUDA_VISIBLE_DEVICES=$gpu d12_part "$part" > "$OUT/ils3opt_paper/$part.log" 2>&1 &
    pids+=($!); gpu=$((gpu + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  tail -n 3 "$OUT"/ils3opt_paper/*.log
  return $failed
}

base_tree() {  # BASE (default .base) is an earlier source tree
  [ -d "${BASE:-.base}/mols" ] || { echo "BASE=${BASE:-.base} is not a source tree (git worktree add .base COMMIT)"; return 1; }
  mkdir -p "$OUT/headline"
}

elite_run() {  # GPU "INSTANCE|NAME|SEED|FLAGS": one -a elite run; prints "INSTANCE NAME SEED GAP % | STEPS"
  local instance name seed flags log
  IFS='|' read -r instance name seed flags <<< "$2"
  log="/tmp/elite/$instance-$name-s$seed.log"
  # shellcheck disable=SC2086 # FLAGS are words
  CUDA_VISIBLE_DEVICES=$1 COLUMNS=250 mols run "$instance" -p qap -a elite -b gpu --time "${ELITE_SECONDS:-20}" \
    --walkers 256 --seed "$seed" $flags -o "/tmp/elite/$instance-$name-s$seed" --overwrite > "$log" 2>&1
  echo "$instance $name $seed $(grep -o '[0-9.]* % above the best known' "$log") | $(grep -o '[0-9,]* neighborhood evaluations' "$log")"
}

elite_runs() {  # the elite suite's runs (see the top), spread over the GPUs
  local gpus variants jobs=() name flags instance seed g i job
  gpus=$(nvidia-smi -L | wc -l)
  variants=$(if [ -n "${VARIANTS:-}" ]; then cat "$VARIANTS"; else echo "defaults|"; fi)
  while IFS='|' read -r name flags; do
    [ -n "$name" ] || continue
    for instance in ${INSTANCES:-tai50a tai100a}; do
      for seed in $(seq "${SEED0:-0}" $((${SEED0:-0} + ${SEEDS:-5} - 1))); do jobs+=("$instance|$name|$seed|$flags"); done
    done
  done <<< "$variants"
  mkdir -p "$OUT/elite" /tmp/elite
  for g in $(seq 0 $((gpus - 1))); do
    i=0
    for job in "${jobs[@]}"; do
      [ $((i % gpus)) -ne "$g" ] || elite_run "$g" "$job"
      i=$((i + 1))
    done > "$OUT/elite/gpu$g.txt" &
  done
  wait
  sort "$OUT"/elite/gpu*.txt > "$OUT/elite/summary.txt" && rm "$OUT"/elite/gpu*.txt
  python3 -c "$MEDIANS" "$OUT/elite/summary.txt" | tee "$OUT/elite/medians.txt"
}

suite() {
  case $1 in
    tests) python3 -m pytest -q -m gpu -p no:cacheprovider -rf ${WORKERS:+-n $WORKERS} ${TESTS:-} 2>&1 \
             | tee "$OUT/gpu_tests.log" | tail -15 ;;
    headline) suite speed; local speed=$?; suite fronts && return $speed ;;
    speed)
      base_tree || return 1
      python3 scripts/speed_compare.py "${BASE:-.base}" --repeats "${REPEATS:-3}" --out "$OUT/headline" \
        ${GPU_ONLY:+--gpu-only} ;;
    fronts) base_tree && python3 scripts/same_fronts.py "${BASE:-.base}" --backend gpu | tee "$OUT/same_fronts_gpu.txt" ;;
    ils)
      ils kroA100_lin318 kroA100,lin318 cpu1,fi-block-shared 2048 128 10 \
        && ils rat783_fl1577 rat783,fl1577 cpu1,fi-block-shared,fi-block-shared-merged 2048 128 10 \
        && ils pcb3038 pcb3038 cpu1,fi-block-merged 4096 512 30 --cpu-runs 1 ;;
    d12) d12_parts ;;
    multistart)
      mols bench multistart --instances tai100a -k 20 -i 100000 --columns gpu1,gpu --no-flowshop --repeats 3 \
        -o "$OUT/multistart/tai100a" \
        && mols bench multistart -k 20 -i 10000 --repeats 1 --cpu-moves 2e5 --pls-iterations 1000 -o "$OUT/multistart/table5" ;;
    multistart-gpus)
      if [ -d "${BASE:-.base}/mols" ]; then
        PYTHONPATH=$PWD/${BASE:-.base}:/tmp/site python3 -c "$BASE_BATCHED" "$OUT/multistart-gpus/before" || return 1
      fi
      mols bench multistart --instances tai100a -k 1000 -i 10000 --columns gpu1,gpu --modes batched --no-flowshop \
        --repeats 5 -o "$OUT/multistart-gpus/after" && python3 -c "$PHASES" "$OUT/multistart-gpus/after/multistart.csv" ;;
    cluster) mols bench cluster -k 32 -i 1000 --repeats 3 --cpu-moves 1e5 -o "$OUT/cluster" ;;
    batch) mols bench batch --instances 020_10_01,tai12a,kroA100 --sizes 1,8,64,1024 -i 10000 -o "$OUT/batch" ;;
    techniques)
      if [ -n "${CASES:-}" ]; then  # Tables 7-9 of these problems alone (Table 7's three instances each: minutes)
        mols bench gpu-techniques --repeats 30 --cases "$CASES" -o "$OUT/gpu-techniques-${CASES//,/-}"
      else
        mols bench gpu-techniques --repeats 30 -o "$OUT/gpu-techniques" && mols bench neighborhood -o "$OUT/neighborhood"
      fi ;;
    qap) mols bench qap --seeds 3 --plain-iterations 1000 --its-seeds 3 --its-backends gpu -o "$OUT/qap" ;;
    tsp) mols bench tsp -o "$OUT/tsp" ;;
    ppp) mols bench ppp --cpu-moves 2000000 -i 1000 --runs 30 --run-iterations 10000 -o "$OUT/ppp" ;;
    weierstrass) mols bench weierstrass -i 10000 -o "$OUT/weierstrass" ;;
    q3ap) mols bench q3ap --runs 10 --ils 30 --ts 2000 --cpu-iterations 20 --compare nug15 --compare-iterations 11025 \
            --compare-runs 10 -o "$OUT/q3ap" ;;
    q3ap-fig2) mols bench q3ap --instances none --compare nug15 --compare-iterations 11025 --compare-runs 10 \
                 -o "$OUT/q3ap-fig2" \
               && mols bench q3ap --instances none --compare random:15:1 --compare-iterations 11025 --compare-runs 10 \
                 -o "$OUT/q3ap-fig2-general" ;;
    fsp) fsp -i 1000 --backends "${FSP_BACKENDS:-cpu1,cpu,gpu}" -o "$OUT/fsp" && fsp --backends gpu -o "$OUT/fsp-gpu-10000" ;;
    archive)
      mols bench archive -o "$OUT/archive" \
        && fsp --sizes 100x20,200x20 --algorithms pls-nondominated,pls-dominating \
             --backends gpu-devicearchive,gpu-hostarchive --seeds 3 -i 1000 -o "$OUT/archive/pls-runs" ;;
    pls) mols bench natural-end --backends gpu -o "$OUT/natural-end" ;;
    peers)
      for domain in ${DOMAINS:-tsp continuous flowshop qap}; do
        mols bench peers --domains $domain ${PEERS:---budgets 1,2,5 --seeds 3 --instances rat783,fl1577,pcb3038} \
          --gpus "${GPUS:-$(nvidia-smi -L | wc -l)}" -o "$OUT/peers/$domain" || return 1
      done ;;
    elite)
      python3 -m pytest -q -m gpu tests/search/test_elite_gpu.py tests/problems/test_qap_rots_round.py \
        tests/resume/test_elite.py > "$OUT/elite_gpu_tests.log" 2>&1 || return 1
      elite_runs ;;
    pymoo) mols bench pymoo --seeds 2 -o "$OUT/pymoo" ;;
    startup) mols bench startup -o "$OUT/startup" ;;
    anytime) mols bench anytime --repeats "${REPEATS:-5}" -o "$OUT/anytime" ;;
    split) mols bench multi-gpu --repeats "${REPEATS:-3}" -o "$OUT/multi-gpu" ;;
    *) echo "unknown suite $1; the suites are listed at the top of $0"; return 2 ;;
  esac
}

pack() {  # PACK=1: $OUT as one results.tgz (scratch folders left out), since a call returns a limited count of files
  tar czf /tmp/results.tgz --exclude=scratch -C "$OUT" . && find "$OUT" -mindepth 1 -delete \
    && mv /tmp/results.tgz "$OUT/"
}

failed=()
for name in "$@"; do
  echo "== $name"
  suite "$name" || failed+=("$name")
done
[ -z "${PACK:-}" ] || pack
[ ${#failed[@]} -eq 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
