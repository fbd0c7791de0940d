"""Try again to rebuild the Q3AP instances of Luong et al. (2010) from QAPLIB's Nugent data, now that the general form
(6-index costs and a linear term) can express them: each construction below, a short ITS search on each instance, the
best value found beside the paper's (instances/q3ap/SOURCE.md records the outcome).

    python scripts/q3ap_rebuild.py [--seconds 20] [--instances nug12,nug15]
"""

from __future__ import annotations

import argparse

import numpy as np

from mols.problems.io import bundled_instances_dir
from mols.problems.q3ap import Q3ap, Q3apGeneral, Q3apGeneralInstance, Q3apInstance
from mols.problems.qap.instance import read_qaplib
from mols.runner import solve

PAPER = {"nug12": 580, "nug13": 1912, "nug15": 2230, "nug18": 17836, "nug22": 42476}


def line(n: int) -> np.ndarray:
    """Manhattan distances of n sites on a line (another layout than the Nugent grid)."""
    return np.abs(np.subtract.outer(np.arange(n), np.arange(n)))


def general(name: str, c: np.ndarray, b: np.ndarray) -> Q3apGeneral:
    return Q3apGeneral(Q3apGeneralInstance(name, b, c))


def constructions(name: str, F: np.ndarray, D: np.ndarray) -> dict[str, object]:
    """Each construction's problem: C[i, j, l, t, k, m] (pairs of positions i, t; p's sites j, k; q's l, m), b[i, j, l]."""
    n = len(F)
    mismatch = np.broadcast_to(D[None, :, :], (n, n, n))  # b[i, j, l] = D[j, l]: p's and q's sites of i apart
    flow_mismatch = F.sum(axis=1)[:, None, None] * mismatch  # ... weighted by the flows of unit i
    fd = np.einsum("it,jk->ijtk", F, D)
    sum_form = fd[:, :, None, :, :, None] + np.einsum("it,lm->iltm", F, D)[:, None, :, :, None, :]
    return {
        "F_it D_jk L_lm (product, L: sites on a line)": Q3ap(Q3apInstance(name, F, D, line(n))),
        "F_it D_jk D_lm + b_ijl = D_jl": general(name, np.einsum("it,jk,lm->ijltkm", F, D, D), mismatch),
        "F_it (D_jk + D_lm) + b_ijl = D_jl": general(name, sum_form, mismatch),
        "F_it (D_jk + D_lm) + b_ijl = (sum_t F_it) D_jl": general(name, sum_form, flow_mismatch),
        "F_it max(D_jk, D_lm)": general(name, np.einsum("it,jklm->ijltkm", F,
                                                         np.maximum(D[:, :, None, None], D[None, None])), 0 * mismatch),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of ITS per construction and instance")
    parser.add_argument("--instances", default="nug12,nug15")
    args = parser.parse_args()
    print("| construction | " + " | ".join(f"{i} (paper {PAPER[i]})" for i in args.instances.split(",")) + " |")
    rows: dict[str, list[str]] = {}
    for name in args.instances.split(","):
        qap = read_qaplib(bundled_instances_dir() / "qap" / f"{name}.dat")
        F, D = qap.b, qap.a[0]  # QAPLIB's nugNN: distances first, then flows
        for label, problem in constructions(name, F, D).items():
            result = solve(problem, neighborhood="advanced", algorithm="its", backend="cpu", time=args.seconds, seed=1,
                           run_length=200)
            rows.setdefault(label, []).append(str(int(result.archive.F.min())))
    for label, values in rows.items():
        print(f"| {label} | " + " | ".join(values) + " |")


if __name__ == "__main__":
    main()
