source scripts/device_env.sh >/dev/null 2>&1
mkdir -p $OUT
timeout -s INT 300 python3 -m pytest -q -m gpu -p no:cacheprovider -rf 2>&1 | tee "$OUT/gpu_tests.log" | tail -8
for inst in 020_10_01 200_20_01; do
  python3 scripts/ab_search.py .base . --repeats 3 instance=$inst algorithm=tabu backend=gpu iterations=10000 2>&1 | tee -a "$OUT/ab_flowshop_walk.txt"
done
python3 scripts/ab_search.py .base . --repeats 3 instance=tai100a problem=qap algorithm=tabu backend=gpu iterations=10000 2>&1 | tee -a "$OUT/ab_flowshop_walk.txt"
