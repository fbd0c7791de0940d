"""Pareto local search, PLS-1 (Paquete et al.), in two variants, dominating (PLS-√) and nondominated (PLS-≠); each
start has its own archive (algorithms/pls/local.py), the run's archive spans the restarts. Why two archives, and PLS on
the device: docs/internals.md."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.pls.local import pick_rank, start_archive
from mols.algorithms.pls.options import VARIANTS
from mols.errors import OptionError
from mols.search.base import Search
from mols.search.profiler import Profiler


class ParetoLocalSearch(Search):
    resumable = True

    def __init__(self, *args, variant: str = "nondominated", restarts: int | None = None, initial=None, **kwargs):
        super().__init__(*args, **kwargs)
        if variant not in VARIANTS:
            raise OptionError("variant", f": unknown PLS variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        if restarts is not None and restarts < 0:
            raise OptionError("restarts", f"must be at least 0, got {restarts}")
        self.variant, self.restarts = variant, restarts
        self.initial = None if initial is None else self._checked(initial)
        self.initial_used = False  # the first start was the initial population's
        self._ongoing = False  # a start restored from a checkpoint, which steps() goes on with
        self.local = start_archive(self.evaluator, self.nbh, self.problem)  # one for every start
        self._pick_seed = int(self.rng.integers(2**63))  # the members' draws: (seed, iteration)
        self.walk = "host" if self.local.device_iterations is None else "device"  # where iterations run
        if self.goal is not None and self.local.device_iterations is not None:
            self.local.device_iterations.most = 1  # the target looked at after every iteration

    def _checked(self, initial) -> np.ndarray:
        """The initial population (B, size), each solution checked (OptionError naming the bad one)."""
        X = np.asarray(initial)
        if X.ndim != 2 or len(X) == 0:
            raise OptionError("initial", f": expected a population of solutions (B, {self.problem.encoding.size}), "
                              f"got an array of shape {X.shape}")
        return np.stack([self.problem.encoding.check(x, f"initial solution {b}") for b, x in enumerate(X)])

    def _starts(self):
        """What each start's archive holds first, (X, F): the initial population's front, then random solutions."""
        if self.initial is not None and not self.initial_used:
            self.initial_used = True
            self.starts += 1
            front = self.new_archive()
            F = self.problem.evaluate(self.initial)
            with self.profiler.section("archiving"):
                self.archive.add(F, self.initial)
                front.add(F, self.initial)
            yield front.X, front.F
        while True:
            x, f = self._random_start()
            yield x[None], f[None]

    def steps(self) -> Iterator[None]:
        starts = self._starts()
        ongoing, self._ongoing = self._ongoing, False  # a restored start: on first, and merged even at the cap
        while ongoing or self.iterations < self.budget:
            if not ongoing:
                self.local.start(*next(starts))
            ongoing = False
            try:
                yield from self._run_start()
            finally:  # also when interrupted or failing: the run's archive gets what this start found
                with self.profiler.section("archiving"):
                    self.archive.add(*self.local.members())
            if self.restarts is not None and self.starts > self.restarts and not self.local.unvisited:
                self.natural_end = True
                return

    def _run_start(self) -> Iterator[None]:
        """Explore unvisited members of the start's archive, picked at random, until none is left or the
        budget is spent: a batch at a time on the device where it can, else one at a time; a step each."""
        local, device = self.local, self.local.device_iterations
        while self.iterations < self.budget and local.unvisited:
            if device is None:
                self._iterate()
                steps = 1
            else:
                with self.profiler.section("evaluation"):
                    steps = device.run(self._pick_seed, self.iterations, self.budget,
                                       self.variant == "dominating") - self.iterations
            self.count_iteration(len(local), steps)
            yield

    def snapshot(self) -> dict | None:
        """Also the current start's members with their visited flags (not in the run's archive yet), where the
        starts are (the initial population used) and the draws' seed (their counter is the iteration's)."""
        if not self.starts:  # no start yet: the start archive holds the warm-up's
            return None
        F, X, visited = self.local.held()
        return super().snapshot() | {"pls": {"pick_seed": self._pick_seed, "initial_used": self.initial_used,
                                             "start": {"F": F, "X": X, "visited": visited}}}

    def restore(self, state: dict) -> None:
        """The start the snapshot was taken in goes on, wherever this run keeps its archive (the walk is this
        run's: a CPU checkpoint may go on on the GPU)."""
        walk = self.walk
        super().restore(state)
        pls, self.walk = state["pls"], walk
        self._pick_seed, self.initial_used = pls["pick_seed"], pls["initial_used"]
        self.local.hold(pls["start"]["F"], pls["start"]["X"], pls["start"]["visited"])
        self._ongoing = True

    def archive_size(self, reported: int) -> int:
        """The run's archive with the current start's members merged in: what it will hold if the run ends now."""
        F, _ = self.local.members()
        accepted, removed = self.archive.verdict(F)
        return len(self.archive) - int(removed.sum()) + int(accepted.sum())

    def trace_values(self) -> tuple[int, int, list[np.ndarray]]:
        """Also the start's members' vectors (a copy), which reach the run's archive when the start ends."""
        iterations, evaluations, F = super().trace_values()
        return iterations, evaluations, [*F, self.local.vectors().copy()]

    def holds_target(self) -> bool:
        """The run's archive, or the start's (whose members reach the run's when the start ends)."""
        return super().holds_target() or self.local.holds(self.goal)

    def _iterate(self) -> None:
        """One iteration driven by the host: the member drawn, picked and explored."""
        x, f = self.local.pick(pick_rank(self._pick_seed, self.iterations, self.local.unvisited))
        self.local.explore(x, f if self.variant == "dominating" else None, self.draw_key(), self.profiler)

    def warm_up(self) -> None:
        """Also compile the start archive's kernels (and capture its graphs), with one iteration that the
        first start then clears."""
        super().warm_up()
        x = self.problem.encoding.initial()
        f = self.problem.evaluate_one(x)
        self.local.start(x[None], f[None])
        x, f = self.local.pick(0)
        self.local.explore(x, f if self.variant == "dominating" else None, self.draw_key(), Profiler())
        if self.local.device_iterations is not None:
            self.local.device_iterations.warm_up()
