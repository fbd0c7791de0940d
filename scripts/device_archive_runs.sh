#!/usr/bin/env bash
# One round on the device machine for issue 5's whole-run targets: the GPU archive's parity tests,
# the filter alone on the 40,000 x 2,000 case, then PLS-≠ and PLS-√ on 100x20 and 200x20 with the
# device archive and with host archiving (3 seeds, 1,000 iterations), then the GPU PLS runs of
# reports/fsp (1,000 iterations) and reports/fsp-gpu-10000 (10,000) made again with the device
# archive. Results go to $OUT as tarballs; build the tables here with the same `mols bench fsp`.
set -uo pipefail
source scripts/device_env.sh
timeout -s INT 200 python3 -m pytest -q -m gpu tests/archive tests/search 2>&1 | tee "$OUT/gpu_tests.log" | tail -4
timeout -s INT 60 python3 cli.py bench archive --ns 40000 --sizes 2000 --repeats 50 -o /tmp/filter 2>&1 | tail -15
timeout -s INT ${RUNS_LIMIT:-240} python3 cli.py bench fsp --sizes 100x20,200x20 \
  --algorithms pls-nondominated,pls-dominating --backends gpu-devicearchive,gpu-hostarchive --seeds 3 \
  -i 1000 --runs-only -o /tmp/archive-runs 2>&1 | tail -5
tar czf "$OUT/archive-runs.tgz" -C /tmp archive-runs
rm -rf reports/fsp/runs/*-pls-*-gpu-s0 reports/fsp-gpu-10000/runs/*-pls-*-gpu-s0
timeout -s INT ${FSP_LIMIT:-150} python3 cli.py bench fsp -i 1000 --backends gpu \
  --algorithms pls-dominating,pls-nondominated --runs-only -o reports/fsp 2>&1 | tail -2
timeout -s INT ${FSP10K_LIMIT:-200} python3 cli.py bench fsp -i 10000 --backends gpu \
  --algorithms pls-dominating,pls-nondominated --runs-only -o reports/fsp-gpu-10000 2>&1 | tail -2
tar czf "$OUT/fsp-gpu-pls.tgz" reports/fsp/runs/*-pls-*-gpu-s0 reports/fsp-gpu-10000/runs/*-pls-*-gpu-s0
