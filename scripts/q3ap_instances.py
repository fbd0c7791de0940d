"""Write mols/instances/q3ap/nugNN.dat: the Q3AP of each QAPLIB Nugent instance by from_nugent's construction
(A = flows, B = E = distances; mols/problems/q3ap/instance.py, instances/q3ap/SOURCE.md).

    python scripts/q3ap_instances.py
"""

from __future__ import annotations

from pathlib import Path

from mols.problems.q3ap import from_nugent, write_q3ap
from mols.problems.qap.instance import read_qaplib

ROOT = Path(__file__).resolve().parents[1] / "mols" / "instances"
NUGENT = ("nug12", "nug15", "nug18", "nug22")  # the paper's sizes that QAPLIB has (no nug13)


def main() -> None:
    for name in NUGENT:
        write_q3ap(from_nugent(read_qaplib(ROOT / "qap" / f"{name}.dat")), ROOT / "q3ap" / f"{name}.dat")
        print(f"wrote {ROOT / 'q3ap' / name}.dat")


if __name__ == "__main__":
    main()
