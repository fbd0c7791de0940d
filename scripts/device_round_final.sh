#!/usr/bin/env bash
# The closing round on the device machine: every `gpu` test of the suite, then `mols bench qap`
# again (tabu on all backends, iterated tabu search on the GPU). Logs and the QAP report go to $OUT.
set -uo pipefail
source scripts/device_env.sh
timeout -s INT ${TESTS_LIMIT:-260} python3 -m pytest -q -m gpu -p no:cacheprovider 2>&1 | tee "$OUT/gpu_tests.log" | tail -3
timeout -s INT ${QAP_LIMIT:-290} python3 cli.py bench qap --its-backends gpu -o /tmp/qap 2>&1 | tail -8
tar czf "$OUT/qap.tgz" -C /tmp qap
