#!/usr/bin/env bash
# One round on the device machine for the GPU non-dominance filter: its parity tests against the host
# archive, then the filter benchmark (mols.bench.archive). moocore and pymoo come as wheels carried in
# .whl/ (installed into /tmp/site, never over the device's numpy). The benchmark stops by itself
# before LIMIT seconds have passed since the start, keeping the rows measured so far: archive.csv,
# archive_rows.jsonl and environment.json; archive.md too where mols.reporting imports.
set -uo pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
LIMIT=${LIMIT:-280}
if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=$PWD:/tmp/site
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/nvidia-smi.txt"
timeout -s INT 150 python3 -m pytest -q -m gpu tests/archive 2>&1 | tee "$OUT/gpu_filter_tests.log" | tail -3
timeout -s INT $((LIMIT - SECONDS)) python3 - "$OUT" <<'PY' 2>&1 | tee "$OUT/archive_bench.log"
import json, sys
from pathlib import Path

import pandas as pd

from mols.bench.archive import run, write_report
from mols.environment import environment

out, rows, env = Path(sys.argv[1]), [], environment()
try:
    import torch

    env["torch (for BoTorch)"] = f"{torch.__version__}, on {'cuda' if torch.cuda.is_available() else 'cpu'}"
except ImportError:
    pass
(out / "environment.json").write_text(json.dumps(env, indent=1))


def on_row(row):
    rows.append(row)
    print(row)
    with open(out / "archive_rows.jsonl", "a") as f:
        f.write(json.dumps(row) + "\n")


try:
    run(on_row=on_row)
except KeyboardInterrupt:
    print(f"stopped by the time limit after {len(rows)} rows")
df = pd.DataFrame(rows)
df.to_csv(out / "archive.csv", index=False)
try:
    write_report(df, out, env)
except ImportError as err:
    print(f"archive.md not written here ({err}); render it with mols.bench.archive.render_markdown")
PY
