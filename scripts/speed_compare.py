"""Before and after, side by side in one run: the figures a change must keep, measured with an earlier
source tree (BASE, e.g. `git worktree add /tmp/base <commit>`) and the current one, in fresh processes
that alternate (base, current, current, base, ...), medians of the repeats.

    python scripts/speed_compare.py BASE --repeats 3 --out reports/headline

The GPU figures start with issue 36's "must not regress" list, in seconds of search as it states them:
flowshop 200_20_01 and 020_10_01 tabu, 200_20_01 PLS-√ and PLS-≠ (10,000 iterations), QAP tai100a and
tai256c tabu (10,000), TSP rl5915 swap (2,000), PPP 1301-1317 Hamming 2 (200), Weierstrass d10 (float64,
10,000); issue 38 adds 1,024 tabu searches of 020_10_01 sharing launches and pcb3038 ILS-3opt to 0.2 %.
`scripts/device.sh headline` runs it on a device.

This parent imports nothing of mols (mols sets GOMP_SPINCOUNT for its processes, and each tree must
run with its own settings). With a GPU it measures the GPU figures and the CPU ones; without, the CPU
ones only. Writes OUT/speed.md and OUT/speed.csv.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import mols
from mols.backends.cuda import gpu_available
from mols.bench.common import median_seconds
from mols.bench.neighborhood import bench_row
from mols.neighborhoods import get_neighborhood
from mols import RunConfig, solve

out, gpu = {}, gpu_available()


def where(name, *modules):  # a name in the first of the modules (the trees compared may keep it in different ones)
    import importlib
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            pass
    raise ImportError(f"{name} is in none of {modules}")


def batch_seconds(searches):  # tabu searches of 020_10_01 sharing each launch, 10,000 iterations each
    sharing = where("sharing_batch", "mols.runner.batch", "mols.algorithms.tabu.batch", "mols.search.batch")
    fields = {"instance": "020_10_01", "algorithm": "tabu", "backend": "gpu"}
    sharing(RunConfig(**fields, iterations=20), searches).run()
    batch = sharing(RunConfig(**fields, iterations=10000), searches)
    start = time.perf_counter()
    batch.run()
    return time.perf_counter() - start


def ils_reach_seconds(seed):  # pcb3038, fi-block, 4,096 solutions in islands of 512, to 0.2 % above the optimum
    fields = {"instance": "pcb3038", "problem": "tsp", "algorithm": "ils", "strategy": "fi-block", "population": 4096,
              "merge": 512, "iterations": 2_000_000_000, "time": 60, "target": 137969, "seed": seed}
    try:
        result = where("config_result", "mols.algorithms.ils3opt.search", "mols.search.ils3opt")(RunConfig(**fields))[0]
    except ImportError:
        result = solve(RunConfig(**fields))
    return result.reached.seconds if result.reached else float("inf")

def run(key, **fields):
    solve(RunConfig(**{**fields, "iterations": 20}))  # compiles, warms up
    result = solve(RunConfig(**fields))
    out[key] = result.wall_seconds
    return result

if gpu:  # issue 36's "must not regress" figures first, as it states them: seconds of search
    for name, fields in (("200_20_01 tabu", {"instance": "200_20_01", "algorithm": "tabu"}),
                         ("020_10_01 tabu", {"instance": "020_10_01", "algorithm": "tabu"}),
                         ("200_20_01 PLS-√", {"instance": "200_20_01", "variant": "dominating"}),
                         ("200_20_01 PLS-≠", {"instance": "200_20_01", "variant": "nondominated"})):
        run(f"flowshop {name}, 10,000 it. (s)", backend="gpu", iterations=10000, **fields)
    for name in ("tai100a", "tai256c"):
        run(f"QAP {name} tabu, 10,000 it. (s)", instance=name, problem="qap", algorithm="tabu", backend="gpu",
            iterations=10000)
    run("TSP rl5915 swap tabu, 2,000 it. (s)", instance="rl5915", problem="tsp", algorithm="tabu",
        neighborhood="swap", backend="gpu", iterations=2000)
    run("PPP 1301-1317 Hamming 2 tabu, 200 it. (s)", instance="1301-1317", problem="ppp", algorithm="tabu",
        neighborhood="hamming2", backend="gpu", iterations=200)
    run("Weierstrass d10 tabu, 10,000 it. (s)", instance="10", problem="weierstrass", algorithm="tabu", backend="gpu",
        iterations=10000)
    r = run("TSP 2-opt random:15000:1 tabu (G moves/s)", instance="random:15000:1", problem="tsp", algorithm="tabu",
            backend="gpu", iterations=60)
    out["TSP 2-opt random:15000:1 tabu (G moves/s)"] = r.iterations * r.n_neighbors / r.wall_seconds / 1e9
    row = bench_row("200x20", get_neighborhood("insertion"), 3, 400)
    out["insertion 200x20, GPU with transfers (us)"] = 1e6 * row["gpu_total_s"]
    out["insertion 200x20, GPU kernel alone (us)"] = 1e6 * row["gpu_kernel_s"]
    from mols.bench.archive import _gpu_call, around, plane_archive
    rng = np.random.default_rng(0)
    A = plane_archive(rng, 3, 2000)
    call = _gpu_call(around(rng, A, 40000), A)
    out["filter 40,000 x 2,000, 3 objectives (ms)"] = 1e3 * median_seconds(call, 200, warmup=5)
    key = "PPP 1301-1317 Hamming 1 tabu (ms per it.)"
    r = run(key, instance="1301-1317", problem="ppp", algorithm="tabu", neighborhood="hamming1", backend="gpu",
            iterations=4000)
    out[key] = 1e3 * r.wall_seconds / r.iterations
    out["020_10_01 tabu, 1,024 searches sharing launches, 10,000 it. (s)"] = batch_seconds(1024)
    ils_reach_seconds(0)  # compiles
    out["pcb3038 ILS-3opt fi-block merged to 0.2 %, median of 3 seeds (s)"] = float(
        np.median([ils_reach_seconds(seed) for seed in (1, 2, 3)]))
    run("Weierstrass d10-f32 tabu, 10,000 it. (s)", instance="10:float32", problem="weierstrass", algorithm="tabu",
        backend="gpu", iterations=10000)
for size in () if sys.argv[2] == "gpu-only" else ("20x10", "50x10", "100x20", "200x20"):
    row = bench_row(size, get_neighborhood("insertion"), 5, 2)
    out[f"insertion {size}, CPU all cores (ms)"] = 1e3 * row["cpu_all_cores_s"]
    out[f"insertion {size}, CPU 1 core (ms)"] = 1e3 * row["cpu_1core_s"]
if sys.argv[2] != "gpu-only":
    run("CPU tai50a ITS, 20,000 it. (s)", instance="tai50a", problem="qap", algorithm="its", backend="cpu",
        iterations=20000)
    run("CPU 050_10_01 PLS, 2,000 it. (s)", instance="050_10_01", backend="cpu", iterations=2000)
print(json.dumps(out))
'''
HIGHER_IS_BETTER = ("G moves/s",)


def measure(tree: Path, gpu_only: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), "gpu-only" if gpu_only else "all"],
                          capture_output=True, text=True, cwd=tree,
                          check=False)
    if done.returncode:
        raise SystemExit(f"the run with {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("bench-out/headline"))
    parser.add_argument("--gpu-only", action="store_true", help="the GPU figures only, not the CPU ones")
    args = parser.parse_args()
    trees = {"before": args.base.resolve(), "after": Path(__file__).resolve().parents[1]}
    runs = {name: [] for name in trees}
    for r in range(args.repeats):
        for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):  # the order alternates: drift hits both
            runs[name].append(measure(trees[name], args.gpu_only))
            print(f"repeat {r + 1}, {name}: done", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "speed_runs.json").write_text(json.dumps(runs, indent=1))
    rows = []
    for key in runs["after"][0]:
        higher = any(h in key for h in HIGHER_IS_BETTER)
        best = max if higher else min
        row = {"figure": key}
        for name in trees:
            values = [m[key] for m in runs[name]]
            row[name], row[f"{name} best"] = statistics.median(values), best(values)
        row["after is faster by"] = row["after"] / row["before"] if higher else row["before"] / row["after"]
        rows.append(row)
    write(rows, args)


def write(rows: list[dict], args) -> None:
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True, check=False).stdout.strip() if Path("/usr/bin/nvidia-smi").exists() else "none"
    lines = ["# Before and after, in one run", "",
             (f"`python scripts/speed_compare.py {args.base} --repeats {args.repeats}`: medians (and the best) of "
              f"{args.repeats} fresh processes per tree, their order alternating. `after is faster by` (of the "
              "medians) > 1: faster now, < 1: slower. Every run: speed_runs.json."), "",
             f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M UTC}", f"- gpu: {gpu or 'none'}",
             f"- cpu: {platform.machine()}, {platform_cores()} logical cores", f"- python: {platform.python_version()}",
             "", "| figure | before | after | after is faster by | before, best | after, best |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['figure']} | {r['before']:.4g} | {r['after']:.4g} | {r['after is faster by']:.3f} | "
              f"{r['before best']:.4g} | {r['after best']:.4g} |" for r in rows]
    (args.out / "speed.md").write_text("\n".join(lines) + "\n")
    (args.out / "speed.csv").write_text("figure,before,after,after_is_faster_by,before_best,after_best\n" + "".join(
        f"\"{r['figure']}\",{r['before']},{r['after']},{r['after is faster by']},{r['before best']},"
        f"{r['after best']}\n" for r in rows))
    print("\n".join(lines))


def platform_cores() -> int:
    import os

    return os.cpu_count() or 0


if __name__ == "__main__":
    main()
