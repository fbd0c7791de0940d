#!/usr/bin/env bash
# Compile the flowshop kernel as mols composes it (insertion, 200x20) for sm_90, then print the
# register/shared-memory report and the SASS. Run where nvcc and cuobjdump exist (the device).
set -euo pipefail
PYTHONPATH=$PWD python3 - > /tmp/k.cu <<'PY'
from mols.backends.cuda import kernel_source
from mols.neighborhoods import NEIGHBORHOODS
from mols.problems import load_problem
pb = load_problem("flowshop", "200_20_01")
print(kernel_source({**pb.cuda_defines(), "BLOCK": 128}, NEIGHBORHOODS["insertion"].cuda_source(), pb.cuda_file.read_text()))
PY
nvcc -std=c++17 -arch=sm_90 -cubin -Xptxas -v -o /tmp/k.cubin /tmp/k.cu
if command -v cuobjdump >/dev/null; then cuobjdump -sass /tmp/k.cubin; fi
