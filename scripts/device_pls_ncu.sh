#!/usr/bin/env bash
# Per-kernel device times of PLS iterations on the device (ncu), both variants, on INSTANCE (200_20_01).
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
for variant in nondominated dominating; do
  ncu --csv --profile-from-start off --metrics gpu__time_duration.sum \
    python3 scripts/pls_kernels.py ${INSTANCE:-200_20_01} --variant $variant --profiled 6 > "$OUT/ncu_$variant.csv" 2> "$OUT/ncu_$variant.err"
  echo "## $variant" | tee -a "$OUT/ncu_kernels.txt"
  python3 scripts/ncu_summary.py "$OUT/ncu_$variant.csv" | tee -a "$OUT/ncu_kernels.txt"
done
