#!/usr/bin/env bash
# One round on the device machine for the searches: GPU parity tests (evaluation, device-side
# selection, same fronts on both backends), then PLS-≠, PLS-√ and aggregated tabu search on the
# given instances on both backends, packed into $OUT/runs.tar.gz for `mols report` here (the
# device has no pymoo).
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
ITER=${ITER:-1000}
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
python3 -m pytest -q -m gpu tests 2>&1 \
  | tee "$OUT/gpu_tests.log" | tail -3
RUNS=/tmp/runs; rm -rf "$RUNS"
for inst in "${@:-200_20_01}"; do
  for alg in "-a pls --variant nondominated" "-a pls --variant dominating" "-a tabu"; do
    for backend in gpu cpu; do
      python3 cli.py run "$inst" $alg -b "$backend" -i "$ITER" -o "$RUNS/$inst-${alg// /}-$backend" \
        2>&1 | tail -12 >> "$OUT/runs.log"
    done
  done
done
tar czf "$OUT/runs.tar.gz" -C "$RUNS" .
