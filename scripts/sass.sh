#!/usr/bin/env bash
# Compile the kernel source given on stdin for sm_90 and print the resource report and SASS.
set -euo pipefail
cat > /tmp/k.cu
nvcc -arch=sm_90 -cubin -Xptxas -v -o /tmp/k.cubin /tmp/k.cu
cuobjdump -sass /tmp/k.cubin
