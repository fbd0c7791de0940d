# Sourced by the device scripts: PYTHONPATH, $OUT, the carried wheels (.whl/: pymoo, moocore,
# hypothesis...) installed into /tmp/site, and the card's name in $OUT/nvidia-smi.txt.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=$PWD:/tmp/site
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
