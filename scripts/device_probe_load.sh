#!/usr/bin/env bash
# The flowshop's neighborhood, load and apply kernels timed alone (scripts/probe_load.py) with the mols of each tree
# in TREES (the instances of this one), in turn, twice; INSTANCES: the flowshop instances.
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for tree in ${TREES:-.base .} ${TREES:-.base .}; do
  for inst in ${INSTANCES:-200_20_01 020_10_01}; do
    echo "# $tree"; PYTHONPATH=$tree python3 scripts/probe_load.py $inst --launches 1000 2>&1 | tail -5
  done
done | tee "$OUT/probe_load.log"
