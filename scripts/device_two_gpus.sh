#!/usr/bin/env bash
# Why do two GPU workers slow each other? One ITS search of tai100a (100,000 iterations, `mols run`, its run.json's
# search time) alone, two side by side on two GPUs, two on one GPU, with and without CPU pinning to each GPU's
# local cores, and one beside a busy CPU core. Run from the repository root on the two-GPU device.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
nvidia-smi topo -m; lscpu | grep -E "Model name|Socket|Thread|NUMA|^CPU\(s\)|MHz"
LISTS=()
for b in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | tr 'A-Z' 'a-z'); do
  l=$(cat /sys/bus/pci/devices/${b#0000}/local_cpulist 2>/dev/null || cat /sys/bus/pci/devices/$b/local_cpulist 2>/dev/null \
      || cat /sys/bus/pci/devices/0000:${b#00000000:}/local_cpulist 2>/dev/null); echo "$b local cpus: $l"; LISTS+=("$l"); done
PIN0=$(python3 -c "print('${LISTS[0]:-0}'.split(',')[0].split('-')[0])")
PIN1=$(python3 -c "a='${LISTS[0]:-0}'.split(',')[0].split('-')[0]; b='${LISTS[1]:-0}'.split(',')[0].split('-')[0]; print(int(b)+4 if a==b else b)")
echo "pin GPU0 -> cpu $PIN0, GPU1 -> cpu $PIN1"; ls /sys/bus/pci/devices | head -3
one() {  # GPU TAG [taskset list]
  local cmd=(python3 cli.py run tai100a -p qap -a its -i ${ITER:-100000} -b gpu -o /tmp/r/$2 --overwrite)
  [ -n "${3:-}" ] && cmd=(taskset -c $3 "${cmd[@]}")
  CUDA_VISIBLE_DEVICES=$1 "${cmd[@]}" >/dev/null 2>&1
  python3 -c "import json;print('$2', round(json.load(open('/tmp/r/$2/run.json'))['wall_seconds'],3))"
}
one 0 warm
for r in 1 2 3; do
  one 0 alone
  one 0 pair0 & one 1 pair1; wait
  one 0 same0 & one 0 same1; wait
  one 0 pin0 $PIN0 & one 1 pin1 $PIN1; wait
  (timeout 8 python3 -c "while 1: pass" &) ; one 0 busy; pkill -f "while 1" || true
done 2>&1 | tee $OUT/two_gpus.log
