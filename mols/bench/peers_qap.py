"""`mols bench peers` on the QAP, where the solver users compare with is a long tabu search: mols' elite of tabu walks
side by side (Ro-TS memory) against its own iterated tabu search, at the same budgets, by their gap to the best known."""

from __future__ import annotations

import functools

from mols.bench.peers_jobs import Domain, Job, MolsSearch, Settings, mols_run
from mols.problems import gap_percent

INSTANCES = ("tai50a", "tai100a")
TARGETS = (1.0, 0.5, 0.3, 0.2, 0.0)  # % above the best known
# The GPU's 256 walks with the elite's defaults (of 13 settings tried at 5 s, wider tenures, a larger elite and half
# the walks restarted each round came lowest, and at 20 s over 5 seeds: reports/peers/)
SEARCH = MolsSearch(gpu={"algorithm": "elite", "walkers": 256}, cpu={"algorithm": "elite", "walkers": 4})
ITS = MolsSearch(gpu={"algorithm": "its"}, cpu={"algorithm": "its"})  # the search the elite must beat
COLUMN = "best_cost"


@functools.cache
def best(instance: str) -> int:
    from mols.bench.qap import best_known

    return int(best_known()[instance])


def gap(instance: str, value: float) -> float:
    return gap_percent(value, best(instance))


def peer_jobs(instance: str, settings: Settings, peers: list[str]) -> list[Job]:
    """mols' iterated tabu search, one run per seed on the device, read at every budget as the elite is."""
    longest = max(settings.budgets)
    return [Job("qap", instance, "mols its", seed, (mols_run, ITS, "qap", instance, seed, settings.backend, longest,
                                                    COLUMN), device=True, expected=longest)
            for seed in range(settings.seeds)]


def size(instance: str) -> str:
    from mols.problems import load_problem

    return f"QAP, n = {load_problem('qap', instance).n}: best known {best(instance):,}"


DOMAIN = Domain("qap", "qap", SEARCH, COLUMN, {}, peer_jobs, gap, size, TARGETS, notes=(
    ("mols: -a elite (tabu walks side by side in one launch, Ro-TS memory, the worst walks restarted from the elite "
     "each round); mols its: iterated tabu search, one walk; gap: (cost - best known) / best known, in %"),
))
