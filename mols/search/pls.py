"""Pareto local search, PLS-1 (Paquete et al.), in two variants.

Each iteration picks an unvisited archive member at random, evaluates its whole neighborhood,
offers neighbors to the archive and marks the member visited. When every member is visited the
search restarts from a new random solution, while the budget of neighborhood evaluations lasts.

Each start has its own archive, which steers it and decides when it is exhausted; everything it
accepts is also offered to the run's archive, which spans the restarts and is the result. (With
one archive for both roles, a random restart is almost always dominated by the front found so
far, so it would stop at once: on 50x10, 74% of the budget went to such dead restarts.)

- dominating (the flowshop paper's PLS-√): only neighbors that dominate the current solution
  are offered.
- nondominated (PLS-≠): every neighbor is offered; the archive keeps those it does not dominate.
"""

from __future__ import annotations

import numpy as np

from mols.archive import Archive, dominates, nondominated
from mols.errors import MolsError
from mols.search.base import Search

VARIANTS = ("dominating", "nondominated")


class ParetoLocalSearch(Search):
    def __init__(self, *args, variant: str = "nondominated", **kwargs):
        super().__init__(*args, **kwargs)
        if variant not in VARIANTS:
            raise MolsError(f"--variant: unknown PLS variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        self.variant = variant

    def _search(self) -> None:
        while self.iterations < self.budget:
            x, f = self._random_start()
            local = self.new_archive()
            local.add(f[None], x[None])
            while self.iterations < self.budget and (unvisited := local.unvisited()).size:
                member = int(self.rng.choice(unvisited))
                local.visited[member] = True
                self._explore(local.X[member].copy(), local.F[member].copy(), local)

    def _explore(self, x: np.ndarray, f: np.ndarray, local: Archive) -> None:
        with self.profiler.section("evaluation"):
            F = self.evaluator.evaluate(x)  # (n_neighbors, n_obj), the evaluator's buffer
        with self.profiler.section("archiving"):
            if self.variant == "dominating":
                ids = np.flatnonzero(dominates(F, f))
                ids = ids[nondominated(F[ids])]
            else:
                ids = np.flatnonzero(nondominated(F))
            F_new, X_new = F[ids], self.nbh.apply_many(x, ids)  # few survive: only they become permutations
            accepted = local.add(F_new, X_new)
            self.archive.add(F_new[accepted], X_new[accepted])
        self._count_iteration()
