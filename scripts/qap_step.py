"""Where a QAP tabu step's time goes on the GPU (reports/qap/per_iteration.txt): the selection's CUDA
graph replayed alone, the state staged alone, and the whole best_weighted call; medians, in us."""

import time

import numpy as np

import mols
from mols.backends import prepare
from mols.neighborhoods import get_neighborhood


def median_us(f, calls: int = 2000) -> float:
    for _ in range(50):
        f()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return round(sorted(times)[2], 1)


def step_parts(name: str) -> str:
    problem = mols.load_problem("qap", name)
    ev = prepare(problem, get_neighborhood("swap"), "gpu")
    x, c = problem.random_solution(np.random.default_rng(0)), np.ones(1)
    ev.best_weighted(x, c, 0, -np.inf)
    selection = ev.selection

    def replay():
        selection._graph.launch(ev.stream)
        ev.stream.synchronize()

    return (f"{name} graph+sync {median_us(replay)} stage {median_us(lambda: ev.stage(x))} best_weighted "
            f"{median_us(lambda: ev.best_weighted(x, c, 0, -np.inf))} fused {selection._fused is not None} "
            f"parts {selection.n_parts}")


if __name__ == "__main__":
    for instance in ["tai60a", "tai64c", "tai80a", "tai100a", "tai256c"]:
        print(step_parts(instance), flush=True)
