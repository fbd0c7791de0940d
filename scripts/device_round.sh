#!/usr/bin/env bash
# One round on the device machine: GPU parity tests, the CPU scaling and kernel studies, then `mols bench
# neighborhood`, whose report lands in reports/ and is copied to $OUT.
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/nvidia-smi.txt"
python3 -m pytest -q -m gpu tests 2>&1 | tee "$OUT/gpu_tests.log" | tail -3
lscpu | grep -E "^(Model name|CPU\(s\)|Thread|Core)" | tee "$OUT/lscpu.txt"
python3 scripts/cpu_scaling.py 2>&1 | tee "$OUT/cpu_scaling.txt"
python3 scripts/cell_op_throughput.py 2>&1 | tee "$OUT/cell_op_throughput.txt"
python3 scripts/profile_flowshop_kernel.py 200_20_01 2>&1 | tee "$OUT/profile_200x20.txt"
python3 cli.py bench neighborhood "$@" && cp reports/neighborhood.* "$OUT/"
