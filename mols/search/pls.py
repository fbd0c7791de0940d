"""Pareto local search, PLS-1 (Paquete et al.), in two variants.

Each iteration picks an unvisited archive member at random, evaluates its whole neighborhood,
offers neighbors to the archive and marks the member visited. When every member is visited the
search restarts from a new random solution, while the budget of neighborhood evaluations lasts.

Each start has its own archive, which steers it and decides when it is exhausted; the run's archive
spans the restarts and is the result. (With one archive for both roles, a random restart is almost
always dominated by the front found so far, so it would stop at once: on 50x10, 74% of the budget
went to such dead restarts.) When a start ends, or the run stops, its archive's members are offered
to the run's archive. That gives the same run archive as offering it every neighbor the start
accepts, as it accepts it: a neighbor that the start's archive drops later is dominated by a member
that stays, which dominates everything the neighbor would have removed.

- dominating (the flowshop paper's PLS-√): only neighbors that dominate the current solution
  are offered.
- nondominated (PLS-≠): every neighbor is offered; the archive keeps those it does not dominate.

Archiving (`archive`): on the host ("cpu"), the whole F comes back and the host filters it. On the
device ("gpu", GPU backend only), F never leaves the device. With the flowshop's insertion and swap
neighborhoods the start's whole archive lives there (mols/archive/resident.py): the host draws which
unvisited member to explore next, gets back its solution, and does no archiving until the start
ends. With other neighborhoods, the archive's vectors are mirrored on the device
(mols/archive/device.py) and only the accepted neighbors come back to the host's copy. Like the tabu
search's device-side selection, the device's filter runs in one CUDA graph with the evaluation, so
the profile counts it under evaluation; archiving is what the host does with the archive.
"""

from __future__ import annotations

import numpy as np

from mols.archive import Archive, dominates, nondominated
from mols.archive.resident import resident_supported
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
        if archive == "gpu" and self.evaluator.chunk < self.evaluator.n_neighbors:
            raise MolsError(f"--archive gpu: {self.evaluator.n_neighbors} neighbors do not fit on the device at once; "
                            "use --archive cpu")
        self.variant, self.on_device = variant, archive == "gpu"
        self._local = None  # on the device, one archive serves every start (its graphs stay valid)
        self.resident = self.on_device and resident_supported(self.nbh)

    def _search(self) -> None:
        while self.iterations < self.budget:
            x, f = self._random_start()
            local = self.new_local_archive()
            if self.resident:
                local.start(x, f)
            else:
                local.add(f[None], x[None])
            try:
                (self._run_resident_start if self.resident else self._run_start)(local)
            finally:  # also when interrupted or failing: the run's archive gets what this start found
                with self.profiler.section("archiving"):
                    self.archive.add(*local.members())

    def warm_up(self) -> None:
        """Also compile the device archive's kernels and capture its graphs, with one iteration that the
        first start then clears."""
        super().warm_up()
        if not self.on_device:
            return
        x = np.arange(self.problem.n, dtype=np.int32)
        f = self.problem.evaluate_one(x)
        local = self.new_local_archive()
        if self.resident:
            local.start(x, f)
            local.explore(*local.pick(0))
        else:
            local.add(f[None], x[None])
            local.filter_neighbors(x)

    def _run_start(self, local: Archive) -> None:
        """Explore unvisited members of `local`, picked at random, until none is left or the budget is spent."""
        while self.iterations < self.budget and (unvisited := local.unvisited()).size:
            member = int(unvisited[self.rng.integers(0, unvisited.size)])  # ResidentArchive.pick draws the same
            local.visited[member] = True
            self._explore(local.solution(member), local.F[member].copy(), local)

    def _run_resident_start(self, local) -> None:
        """The same with the whole archive on the device (a ResidentArchive): no archiving on the host."""
        while self.iterations < self.budget and local.unvisited:
            x, f = local.pick(int(self.rng.integers(0, local.unvisited)))
            with self.profiler.section("evaluation"):
                local.explore(x, f if self.variant == "dominating" else None)
            self._count_iteration(len(local))

    def new_local_archive(self):
        """An empty archive for a new start."""
        if not self.on_device:
            return self.new_archive()
        if self._local is None:
            from mols.archive.device import MirroredArchive
            from mols.archive.resident import ResidentArchive

            self._local = (ResidentArchive(self.evaluator, self.nbh) if self.resident else
                           MirroredArchive(self.problem.n_obj, self.problem.n, self.problem.dtype, evaluator=self.evaluator))
        else:
            self._local.clear()
        return self._local

    def _explore(self, x: np.ndarray, f: np.ndarray, local: Archive) -> None:
        offer = self._offer_on_device if self.on_device else self._offer_on_host
        offer(x, f, local)
        self._count_iteration(len(local))

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
        """The neighbors `local` (a MirroredArchive) accepts, evaluated and filtered on the device."""
        with self.profiler.section("evaluation"):
            result = local.filter_neighbors(x, f if self.variant == "dominating" else None)
        with self.profiler.section("archiving"):
            X_new = self.nbh.apply_many(x, result.ids)
            local.commit(result, X_new)
            return result.F, X_new
