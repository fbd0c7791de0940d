#!/usr/bin/env bash
# Issues 17-18 on the device. PART=tests: every gpu test (scipy from .whl/extra where the device lacks it).
# PART=bench: 1,024 tabu searches before (.base) and after (scripts/probe_batch.py), mols bench natural-end and
# mols bench pymoo on the GPU, each into $OUT.
set -uo pipefail
source scripts/device_env.sh >/dev/null 2>&1
python3 -c "import scipy" 2>/dev/null || python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/extra/*.whl
if [ "${PART:-tests}" = tests ]; then
  timeout -s INT ${TESTS_LIMIT:-560} python3 -m pytest -q -m gpu -p no:cacheprovider -rf ${TESTS:-} 2>&1 \
    | tee "$OUT/gpu_tests.log" | tail -25
  exit 0
fi
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider tests/archive/test_resident.py 2>&1 | tail -2
for side in .base . .base .; do
  echo "# $side" | tee -a "$OUT/batch_probe.log"
  (cd "$side" && PYTHONPATH=$PWD:/tmp/site timeout 60 python3 "$OLDPWD/scripts/probe_batch.py") 2>&1 \
    | tee -a "$OUT/batch_probe.log" | tail -3
done
timeout 150 python3 cli.py bench natural-end --backends gpu -o "$OUT/natural-end" 2>&1 | tee "$OUT/natural_end.log" | tail -15
timeout 300 python3 cli.py bench pymoo --seeds ${SEEDS:-2} -o "$OUT/pymoo" 2>&1 | tee "$OUT/pymoo.log" | tail -30
