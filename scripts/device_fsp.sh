#!/usr/bin/env bash
# Runs of `mols bench fsp` on the device machine, which lacks pymoo: the runs only, stopped with
# SIGINT before the call's limit (the run in flight is written as interrupted and redone next
# time), then packed into one file. Unpack it into reports/fsp/runs here and run the same
# `mols bench fsp` command without --runs-only to resume or to build the tables.
# Usage: LIMIT=540 scripts/device_fsp.sh "--backends gpu,cpu" "--backends cpu1 --sizes 20x10"
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
LIMIT=${LIMIT:-540}
ITER=${ITER:-1000}
end=$((SECONDS + LIMIT))
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
for args in "$@"; do
  left=$((end - SECONDS)); [ "$left" -gt 5 ] || break
  # shellcheck disable=SC2086
  timeout -s INT "$left" python3 cli.py bench fsp -i "$ITER" --runs-only $args 2>&1 | tee -a "$OUT/fsp.log"
done
tar czf "$OUT/fsp-runs.tar.gz" reports/fsp/runs
