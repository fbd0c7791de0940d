"""Tabu walks side by side in rounds, with an elite: Ro-TS tenures drawn per walk and round, its long-term
aspiration at each round's end, and the worst walks restarted from perturbed elite solutions (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mols.algorithms.elite.device import ROUND_THREADS, DeviceRounds, device_rounds
from mols.algorithms.elite.memory import Elite, WalkMemory, oldest_swap
from mols.algorithms.elite.options import DEFAULT_ELITE, DEFAULT_TENURES, tenure_range
from mols.algorithms.elite.rots import RotsMemory, rots_choice
from mols.algorithms.elite.state import Walks, restored_walks, shares, walks_state
from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.select import weighted_scores
from mols.algorithms.tabu.steps import TabuRun, Trail, WalkLane
from mols.algorithms.tabu.together import walk_together
from mols.algorithms.tabu.walks import lane_walker, walks_on_device
from mols.backends.threads import numba_threads
from mols.errors import OptionError
from mols.neighborhoods.swap import swap_pairs

PERIOD_PER_SIZE = 10  # default round: 10 n steps of each walk on the CPU
# on the GPU, whose walks take 10-15 times as many steps in a given time: longer rounds take them deeper; and at least
# DEVICE_ROUND_WORK / n^2 (5,000 at n = 50), as a launch's time grows with n^2 and must outweigh the host's work between
# rounds, which stays much the same whatever n (reports/qap/)
DEVICE_PERIOD_PER_SIZE, DEVICE_ROUND_WORK = 30, 12_500_000
ASPIRATION_PER_SQUARE = 5  # default long-term aspiration: 5 n^2 steps (Taillard's Ro-TS)


class EliteTabu(AggregatedTabu):
    """`walkers` tabu walks (one objective) that go on from round to round where they stand, each round with a
    tenure drawn afresh (and a fresh tabu memory); see EliteOptions."""

    resumes_with = ("with Ro-TS's memory ({tabu_memory} rots), {launch} round and no {target}",
                    ("tabu_memory", "launch", "target"))

    def __init__(self, *args, walkers: int = 32, elite: int = DEFAULT_ELITE, replace: int | None = None,
                 period: int | None = None, tenures=None, aspiration: int | None = None,
                 strength: int | None = None, tabu_memory: str | None = None, launch: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        problem, n = self.problem, self.problem.n
        if problem.n_obj != 1:
            raise OptionError("objectives", f"elite minimises one objective; {problem.name} has {problem.n_obj}: "
                              "choose one with {objectives}", "objectives")
        if problem.encoding.name != "permutation":
            raise OptionError("algorithm", f"elite walks a permutation, not a {problem.encoding.name} vector")
        self.tenures = tenure_range(tenures or DEFAULT_TENURES, n)
        self.tenure = min(self.tenures[1], self.budget)  # the longest drawn: the warm-up's walks
        self.walkers, self.replace = walkers, walkers // 2 if replace is None else replace
        if self.replace > walkers:
            raise OptionError("replace", f"must be at most {{walkers}} ({walkers}), got {self.replace}", "walkers")
        self.elite = Elite(elite)
        if period is None and walks_on_device(self.evaluator):
            period = max(DEVICE_PERIOD_PER_SIZE * n, -(-DEVICE_ROUND_WORK // n**2))
        self.period = PERIOD_PER_SIZE * n if period is None else period
        self.aspiration = ASPIRATION_PER_SQUARE * n * n if aspiration is None else aspiration
        self.strength = max(2, n // 10) if strength is None else strength
        if not 1 <= self.strength <= n:
            raise OptionError("strength", f"must be in 1..{n} (random swaps per restart), got {self.strength}")
        if self.period < 1 or self.aspiration < 0:
            raise OptionError("period" if self.period < 1 else "aspiration", "must be positive")
        if tabu_memory is None:
            tabu_memory = "rots" if self.nbh.name == "swap" else "moves"
        if tabu_memory == "rots" and self.nbh.name != "swap":
            raise OptionError("tabu_memory", f"rots is a memory of swaps, not of {self.nbh.name} moves: choose moves")
        self.rots = RotsMemory(walkers, n, self.tenures, self.period) if tabu_memory == "rots" else None
        self._lane_of = {}  # id(run) -> its walk, for Ro-TS's walks from the host (_walk)
        self.launch = launch
        self._rounds = None  # (the round kernel or None), once _round_kernel has chosen
        self._walks: Walks | None = None  # the walks between rounds (rounds), made at the first
        self._walking: list[TabuRun] = []  # the round's runs

    def _weight_vectors(self, weights, partitions: int) -> np.ndarray:
        return np.ones((1, 1))

    def warm_up(self) -> None:
        super().warm_up()
        x = self.problem.encoding.initial()
        if self.rots is None:
            self.warm_lanes(self.walkers)
            memory = WalkMemory(x)
            memory.watch(memory.last[None])
            memory.forced(0)
            return
        rounds = self._round_kernel()
        if rounds is None:
            self.warm_lanes(self.walkers, self.rots.device)
        else:  # a round of one step, compiled (its arrays are copies)
            one = np.ones(1, dtype=np.int64)
            rounds.run(x[None], self.rots.left[:1], self.rots.tenures[:1], self.rots.every, one, one, x[None], one)
        F = self.evaluator.evaluate(x)
        rots_choice(F, self.w, self.rots.left[0], x, swap_pairs(len(x)), 0, 0.0)
        oldest_swap(self.rots.left[0], x, 0, 0)

    def rounds(self) -> Iterator[list[TabuRun] | None]:
        """A round of the walks at a time, each from where it stands, until the budget is spent (its steps shared
        evenly in the last); between rounds, the walks' bests join the elite, the worst walks restart, and the
        others make the swap the long-term aspiration forces, if any. A resumed search starts at the end of the
        round its checkpoint was taken at (restore)."""
        if self._walks is None:
            self._walks = self._start_walks()
        walks = self._walks
        while True:
            if walks.between and walks.left > 0:
                walks.tenures = self._draw_tenures()
                walks.tabu = self._between_rounds(walks.x, walks.bests, walks.memories, walks.tenures)
            walks.between = False
            if walks.left <= 0:
                return
            lengths = shares(min(walks.left, self.walkers * self.period), self.walkers)
            self._lane_of = {}
            self._walking = [self._run(walks.x[b], walks.bests[b], int(lengths[b]), int(walks.tenures[b]),
                                       walks.tabu[b], walks.memories[b]) for b in range(self.walkers)]
            yield self._walking
            x = [memory.last.copy() for memory in walks.memories] if self.rots is None else list(self.rots.x.copy())
            walks.walked(self._walking, int(lengths.sum()), x)

    def _start_walks(self) -> Walks:
        """The walks from random solutions, the first round's tenures drawn."""
        starts = [self._random_start() for _ in range(self.walkers)]
        x = [xw for xw, _ in starts]
        bests = [(float(weighted_scores(f[None], self.w)[0]), xw, f) for xw, f in starts]
        memories = [WalkMemory(xw) if self.rots is None else None for xw in x]
        for b, xw in enumerate(x if self.rots is not None else []):
            self.rots.restart(b, xw)
        return Walks(x, bests, memories, [None] * self.walkers, self._draw_tenures(), self.budget)

    @property
    def resumable(self) -> bool:
        """Where a round is one step (a round at once): each step ends a round, where a checkpoint holds what the
        walks need (state.py)."""
        return self._round_kernel() is not None

    def snapshot(self) -> dict | None:
        if not self.resumable or self._walks is None:
            return None
        steps = sum(run.lane.steps for run in self._walking)  # a round at once leaves its runs' lanes whole
        return super().snapshot() | {"elite": walks_state(self._walks, self._walking, steps, self.rots, self.elite)}

    def restore(self, state: dict) -> None:
        super().restore(state)
        self._walks = restored_walks(state["elite"], self.rots, self.elite)

    def _draw_tenures(self) -> np.ndarray:
        """Each walk's tenure for a round (with Ro-TS's memory, its first of the round), drawn uniformly in the
        range."""
        if self.rots is not None:
            return self.rots.draw(self.rng)[:, 0]
        return self.rng.integers(self.tenures[0], self.tenures[1] + 1, self.walkers)

    def _walk_runs(self, runs: list[TabuRun]) -> Iterator[None]:
        """The round's walks (walk_together's); with Ro-TS's memory, side by side on a walker of it where there is
        one, their tables up before and back after, then made relative to the next round."""
        if self.rots is None:
            yield from super()._walk_runs(runs)
            return
        rots, lengths = self.rots, np.array([run.lane.steps for run in runs], dtype=np.int64)
        rounds = self._round_kernel()
        if rounds is not None:  # the round's one step: its tables made relative first, as a checkpoint keeps them
            self._round_launch(rounds, runs, lengths)
            rots.end_round(lengths)
            yield
            return
        walker = lane_walker(self.evaluator, len(runs), rots.device)
        if walker is not None:
            walker.rots.load(rots.left, rots.tenures)
        yield from walk_together([(self, run) for run in runs], lambda ev, lanes: walker)
        if walker is not None:
            rots.left[:] = walker.rots.tables(len(runs))
            rots.x[:] = walker.solutions(len(runs))
        rots.end_round(lengths)

    def _round_kernel(self):
        """Where launch is round (the default), the walks have Ro-TS's memory and no target cuts them short:
        the device's round kernel (device_rounds') where they walk on the device, else its twin on CPU cores; else
        None (steps). Chosen once, at the first call."""
        if self._rounds is None:
            self._rounds = (self._choose_rounds(),)
        return self._rounds[0]

    def _choose_rounds(self):
        on_device = walks_on_device(self.evaluator)
        launch = self.launch or "round"
        if launch != "round" or self.rots is None or self.goal is not None:
            return None
        if on_device:
            return device_rounds(self.evaluator)
        kernel = self.problem.kernels.rots_round(self.nbh, ROUND_THREADS)
        return None if kernel is None else kernel.cpu

    def _round_launch(self, rounds, runs: list[TabuRun], lengths: np.ndarray) -> None:
        """The runs' round at once (DeviceRounds.run, or its twin's on CPU cores): where the walks stand, their
        tables, and each run's best (offered to its archive) brought up to date; the steps counted."""
        rots, W, dtype = self.rots, len(runs), self.problem.dtype
        best = np.array([run.best for run in runs])
        with self.profiler.section("evaluation"), numba_threads(self.evaluator.spec.threads):
            out = rounds.run(rots.x[:W], rots.left[:W], rots.tenures[:W], rots.every, lengths,
                             np.array([run.lane.threshold for run in runs]).astype(dtype),
                             np.stack([run.best_xf[0] for run in runs]), best.astype(dtype))
        rots.x[:W], rots.left[:W] = out["x"], out["left"]
        improved = np.flatnonzero(out["best"] < best)
        X = out["best_x"][improved].astype(self.problem.encoding.dtype)
        F = out["best"][improved, None].astype(dtype)
        for k, b in enumerate(improved.tolist()):
            runs[b].best, runs[b].best_xf = float(F[k, 0]), (X[k], F[k])
        if len(improved):  # at once, in the walks' order: what merging their archives would keep (the runs have none)
            with self.profiler.section("archiving"):
                self.archive.add(F, X)
        self.walk = "device" if isinstance(rounds, DeviceRounds) else "host"
        self.count_iteration(None, int(lengths.sum()))

    def walk_tuning(self, run: TabuRun) -> Iterator[None]:
        """AggregatedTabu.walk_tuning's, but for walks with Ro-TS's memory, which the tuner's host walk does not keep:
        they leave the launch as it is."""
        if self.rots is None:
            yield from super().walk_tuning(run)

    def _walk(self, run: TabuRun) -> Iterator[Trail]:
        """A walk alone: with Ro-TS's memory, from the host (RotsWalk)."""
        if self.rots is None:
            return super()._walk(run)
        self.walk = "host"
        return iter(self.rots.walk(self.evaluator, self._lane_of[id(run)], run.lane))

    @property
    def w(self) -> np.ndarray:
        return self.weights[0]

    def _run(self, x: np.ndarray, best: tuple, steps: int, tenure: int, tabu, memory: WalkMemory | None) -> TabuRun:
        """A walk's round: `steps` steps from x with `tenure`, its aspiration threshold its best so far; a step at a
        time, its solutions go to an archive of its own, merged in the walks' order (AggregatedTabu.merge); a round at
        once, _round_launch offers its best."""
        archive = None
        if self._round_kernel() is None:
            archive = self.new_archive()
            self._open.append(archive)
        score, bx, bf = best
        lane = WalkLane(x, self.w, score, steps, self.draw_keys(steps), tabu)
        run = TabuRun(lane, archive, score, (bx, bf), tenure=tenure, watch=None if memory is None else memory.watch)
        if archive is not None:  # a round at once keeps the round out of AggregatedTabu's (its checkpoint's)
            self._lane_of[id(run)] = len(self.round)
            self.round.append(run)
        return run

    def _between_rounds(self, x: list, bests: list, memories: list, tenures: np.ndarray) -> list:
        """The bests into the elite; the `replace` walks of the worst bests restarted from perturbed elite solutions
        (x, bests and memories changed in place); the others' forced swaps made. Each walk's tabu memory to start the
        next round with (the forced swap's inverse for its `tenures`, where the neighborhood is swaps), or None."""
        for score, bx, _ in bests:
            self.elite.offer(score, bx)
        order = np.argsort([score for score, _, _ in bests], kind="stable")
        restarted = set(order[len(order) - self.replace:].tolist()) if self.replace else set()
        tabu, visits = [None] * len(x), []
        n = self.problem.n
        forced = {}
        if self.rots is not None and self.aspiration:
            with numba_threads(self.evaluator.spec.threads):  # --threads, as the rounds
                forced = self.rots.force([b for b in range(len(x)) if b not in restarted], self.aspiration)
        for b in range(len(x)):
            if b in restarted:
                x[b] = self.problem.encoding.perturb(self.elite.draw(self.rng), self.rng, self.strength)
                bests[b] = self._visit(x[b], None, visits)
                if self.rots is None:
                    memories[b].restart(x[b], memories[b].count)
                else:
                    self.rots.restart(b, x[b])
                continue
            if not self.aspiration:
                continue
            if self.rots is not None:  # the table keeps the forced swap (RotsMemory.force)
                if b in forced:
                    x[b] = self.rots.x[b].copy()
                    bests[b] = self._visit(x[b], bests[b], visits)
                continue
            swap = memories[b].forced(self.aspiration)
            if swap is not None:
                r, s = swap
                x[b][[r, s]] = x[b][[s, r]]
                memories[b].watch(x[b][None])
                bests[b] = self._visit(x[b], bests[b], visits)
                if self.nbh.name == "swap":  # its inverse tabu, as after a step
                    idx = self.nbh.inverse(self.nbh.index(r, s, n), n)
                    tabu[b] = np.array([[idx], [int(tenures[b])]], dtype=np.int64)
        if visits:  # offered at once, in the walks' order: the archive one offer after another would keep
            with self.profiler.section("archiving"):
                self.archive.add(np.stack([f for f, _ in visits]), np.stack([v for _, v in visits]))
        return tabu

    def _visit(self, x: np.ndarray, best: tuple | None, visits: list) -> tuple:
        """x, reached between rounds, into `visits` (f, x) to offer to the archive; the walk's best after it (x's
        where `best` is None)."""
        f = self.problem.evaluate_one(x)
        visits.append((f, x.copy()))
        score = float(weighted_scores(f[None], self.w)[0])
        return (score, x.copy(), f) if best is None or score < best[0] else best
