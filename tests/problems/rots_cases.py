"""Walks for the round kernels of Ro-TS walks (qap/rots_round.cu and its Numba twin, qap/rots_round.py), and their
rounds by RotsWalk (elite/rots.py), the twin both must equal."""

from __future__ import annotations

import numpy as np

from mols.algorithms.elite.rots import RotsWalk
from mols.algorithms.tabu.steps import WalkLane
from mols.backends import prepare
from mols.problems import load_problem
from mols.problems.qap import Qap
from mols.problems.qap.instance import QapInstance

SLOTS, EVERY = 3, 7
CASES = ("tai12a", "asymmetric-13", "symmetric-30", "ties-10")  # ties: costs of 0..2, many equal


def instance(case: str, rng) -> Qap:
    if case == "tai12a":
        return load_problem("qap", "tai12a")
    n, high = int(case.split("-")[1]), 3 if case.startswith("ties") else 40  # values of 0..2: many equal costs
    a, b = rng.integers(0, high, (1, n, n)), rng.integers(0, high, (n, n))
    if case.startswith("symmetric"):
        a, b = a + a.transpose(0, 2, 1), b + b.T
    return Qap(QapInstance(case, a, b))


def walks(problem, rng, lengths) -> dict:
    """Walks as the elite's rounds hand them over: a start, its cost, a table, tenures, the aspiration threshold and
    the walk's best (below the start, so that both aspiration and new bests occur)."""
    n, W = problem.n, len(lengths)
    x = np.stack([problem.random_solution(rng) for _ in range(W)])
    cost = np.array([problem.evaluate_one(xw)[0] for xw in x], dtype=problem.dtype)
    best = cost - rng.integers(0, min(200, int(cost.min()) // 4 + 2), W).astype(problem.dtype)
    return {"perms": x.astype(np.int32), "costs": cost, "lefts": rng.integers(-3 * n, 1, (W, n, n)).astype(np.int32),
            "tenures": rng.integers(1, n, (W, SLOTS)).astype(np.int64), "lengths": np.array(lengths, np.int64),
            "thresholds": best.copy(), "best_perms": x[::-1].astype(np.int32).copy(), "best_costs": best}


def on_the_host(problem, given: dict) -> dict:
    """Each walk's round by RotsWalk."""
    ev, out = prepare(problem, problem.neighborhood("swap"), "cpu"), {k: v.copy() for k, v in given.items()}
    for b in range(len(out["lengths"])):
        at, left = out["perms"][b].astype(np.int64), out["lefts"][b]
        lane = WalkLane(at.copy(), np.ones(1), float(out["thresholds"][b]), int(out["lengths"][b]))
        for X, score, _ in RotsWalk(ev, lane, left, out["tenures"][b], EVERY, at):
            out["costs"][b] = score[0]
            out["thresholds"][b] = min(out["thresholds"][b], score[0])
            if score[0] < out["best_costs"][b]:
                out["best_costs"][b], out["best_perms"][b] = score[0], X[0]
        out["perms"][b] = at
    return out
