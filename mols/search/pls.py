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

Archiving (`archive`): on the host ("cpu"), the whole F comes back and the host filters it. On the
device ("gpu", GPU backend only), each start's archive is mirrored there and F never leaves the
device: the filter (mols/archive/gpu_filter.py) returns only the accepted neighbors, which alone
become permutations. Like the tabu search's device-side selection, that filter is a reduction of
the evaluated neighborhood on the device, so the profile counts it under evaluation; archiving is
what the host does with the accepted neighbors.
"""

from __future__ import annotations

import numpy as np

from mols.archive import Archive, dominates, nondominated
from mols.errors import MolsError
from mols.search.base import Search

VARIANTS = ("dominating", "nondominated")
ARCHIVES = ("cpu", "gpu")


class ParetoLocalSearch(Search):
    def __init__(self, *args, variant: str = "nondominated", archive: str = "cpu", **kwargs):
        super().__init__(*args, **kwargs)
        if variant not in VARIANTS:
            raise MolsError(f"--variant: unknown PLS variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        if archive not in ARCHIVES or archive == "gpu" and self.evaluator.backend != "gpu":
            raise MolsError(f"--archive {archive}: choose cpu, or gpu with the gpu backend")
        self.variant, self.on_device = variant, archive == "gpu"

    def _search(self) -> None:
        while self.iterations < self.budget:
            x, f = self._random_start()
            local = self.new_local_archive()
            local.add(f[None], x[None])
            while self.iterations < self.budget and (unvisited := local.unvisited()).size:
                member = int(self.rng.choice(unvisited))
                local.visited[member] = True
                self._explore(local.X[member].copy(), local.F[member].copy(), local)

    def new_local_archive(self) -> Archive:
        if not self.on_device:
            return self.new_archive()
        from mols.archive.device import MirroredArchive

        return MirroredArchive(self.problem.n_obj, self.problem.n, self.problem.dtype, stream=self.evaluator.stream)

    def _explore(self, x: np.ndarray, f: np.ndarray, local: Archive) -> None:
        if self.on_device:
            F_new, X_new = self._offer_on_device(x, f, local)
        else:
            F_new, X_new = self._offer_on_host(x, f, local)
        with self.profiler.section("archiving"):
            self.archive.add(F_new, X_new)
        self._count_iteration()

    def _offer_on_host(self, x: np.ndarray, f: np.ndarray, local: Archive):
        """The neighbors `local` accepts, filtered on the host."""
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
            return F_new[accepted], X_new[accepted]

    def _offer_on_device(self, x: np.ndarray, f: np.ndarray, local):
        """The neighbors `local` (a MirroredArchive) accepts, filtered on the device."""
        with self.profiler.section("evaluation"):
            F = self.evaluator.evaluate_device(x)
            moves = None
            if self.variant == "dominating":
                with self.evaluator.stream:
                    moves = dominating_ids(F, f)
                    F = F[moves]
                moves = moves.get()
            result = local.filter(F)
        with self.profiler.section("archiving"):
            ids = result.ids if moves is None else moves[result.ids]
            X_new = self.nbh.apply_many(x, ids)
            local.commit(result, X_new)
            return result.F, X_new


def dominating_ids(F, f: np.ndarray):
    """On the device: the ids of the rows of F (N, k) that dominate f (k,)."""
    import cupy

    f = cupy.asarray(f, dtype=F.dtype)
    return cupy.flatnonzero(cupy.all(F <= f, axis=1) & cupy.any(F < f, axis=1))
