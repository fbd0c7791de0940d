"""What every search shares: problem, neighborhood, evaluator, seeded RNG, archive, budget, profile."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from mols.archive import Archive, dominates, nondominated
from mols.archive.host import weakly_dominated
from mols.backends.base import Evaluator
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem
from mols.search.budget import Budgets, Reached, target_point
from mols.search.loop import Runner
from mols.search.monitor import EachIteration
from mols.search.options import check_budget, default_iterations
from mols.search.profiler import Profiler
from mols.search.trace import Trace


def archive_state(archive: Archive) -> dict:
    """An archive's members in order (F, X, visited), for a checkpoint."""
    return {"F": archive.F.copy(), "X": archive.X, "visited": archive.visited.copy()}


def restore_archive(archive: Archive, state: dict) -> None:
    """`archive` holding exactly the members of archive_state's `state`, in their order."""
    archive.hold(state["F"], state["X"], state["visited"])


OnIteration = Callable[[int, int], None]  # (neighborhood evaluations so far, archive size)


@dataclass(frozen=True)
class DrawKeys:
    """`count` draw keys (seed, first), (seed, first + 1), ...: key t (an array (2,) uint64) or keys[a:b]
    ((b - a, 2)), made when asked for (a run's keys would take 16 bytes per iteration)."""

    seed: int
    first: int
    count: int

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, t: int | slice) -> np.ndarray:
        if isinstance(t, slice):
            start, stop, _ = t.indices(self.count)
            keys = np.empty((max(stop - start, 0), 2), dtype=np.uint64)
            keys[:, 0] = self.seed
            keys[:, 1] = np.arange(self.first + start, self.first + max(stop, start), dtype=np.uint64)
            return keys
        if not 0 <= t < self.count:
            raise IndexError(f"draw key {t} of {self.count}")
        return np.array([self.seed, self.first + t], dtype=np.uint64)


@dataclass
class SearchResult:
    """What a run found and what it cost. status: completed, interrupted (Ctrl-C) or failed;
    the archive holds everything found until then."""

    archive: Archive
    iterations: int  # neighborhood evaluations
    n_neighbors: int  # neighbors per evaluation
    wall_seconds: float
    profile: dict[str, dict[str, float]]
    status: str = "completed"
    error: str | None = None
    starts: int = 0  # random starting solutions
    signal: str | None = None  # the signal that interrupted it (SIGINT, SIGTERM, SIGHUP), if one did
    target: float | tuple[float, ...] | None = None  # the value (one per objective) that would end it early, if any
    reached: Reached | None = None  # when the target was reached, if it was
    walk: str | None = None  # tabu walks, PLS iterations: "device" (batches in CUDA graphs) or "host"; None: neither
    ended_by: str | None = None  # a completed run: iterations, evaluations, time, target or natural end
    details: dict | None = None  # what only this algorithm records (ILS-3opt: strategy, population, gap), in run.json
    resumed: dict | None = None  # a run resumed from a checkpoint: its iterations and seconds of search by then
    trace: Trace | None = None  # how the run went, row by row (search/trace.py): trace.csv

    @property
    def evaluated_neighbors(self) -> int:
        return self.iterations * self.n_neighbors


class Search(ABC):
    resumable = False  # whether snapshot() holds all its loop needs to go on (a search that adds to it says so)
    # where only some of its runs are resumable: what they need, as OptionError's text and the parameters it names
    resumes_with: tuple[str, tuple[str, ...]] | None = None

    def __init__(self, problem: Problem, nbh: Neighborhood, evaluator: Evaluator, iterations: int | None,
                 rng: np.random.Generator, on_iteration: OnIteration | None = None,
                 target: float | tuple[float, ...] | None = None, time: float | None = None,
                 evaluations: int | None = None):
        """The budgets (search/budget.py): iterations (None: 10,000, or none where time or evaluations is
        given), evaluations (neighbors), time (seconds) and target (a value per objective); `on_iteration` becomes
        one of its monitors (search/monitor.py)."""
        iterations = default_iterations(iterations, time, evaluations)
        check_budget(iterations, time, evaluations)
        self.problem, self.nbh, self.evaluator = problem, nbh, evaluator
        self.goal = target_point(target, problem)  # the target as a vector, or None
        self.target = None if self.goal is None else (float(self.goal[0]) if len(self.goal) == 1
                                                      else tuple(self.goal.tolist()))
        self.budgets = Budgets.of(iterations, evaluations, time, self.target, evaluator.n_neighbors)
        self.budget = self.budgets.cap  # iterations at most, passed down to the loops
        self.total = self.budget if iterations is not None or evaluations is not None else None  # for progress
        self.rng = rng
        self.monitors = [] if on_iteration is None else [EachIteration(on_iteration)]
        self.archive = self.new_archive()
        self.profiler = Profiler()
        self.iterations = 0
        self.reported = None  # the archive size the last step reported (None: the run's archive's)
        self.starts = 0
        self.reached = None
        self.natural_end = False  # PLS: the last start allowed is fully explored
        self.walk = None  # where tabu walks ran (SearchResult.walk)
        self.resumed = None  # SearchResult.resumed
        self.trace = None  # its Trace, once a runner has given it one (search/trace.py)
        self._draw_seed = int(rng.integers(2**63)) if nbh.sampled else None  # drawn only where something samples
        self._draws = 0

    def run(self, stop=None, monitors=(), resume: dict | None = None) -> SearchResult:
        """Search until a budget is spent (or PLS's natural end): Runner(self, monitors=monitors, stop=stop).run().
        A stop requested through `stop` (a mols.signals.StopSignals: SIGINT, SIGTERM, SIGHUP) ends it after the
        step in progress; Ctrl-C without one, or an error, ends it where it is. Either way the result holds the
        archive found so far, with the status and the error. `resume`: a checkpoint's state to go on from."""
        return Runner(self, monitors=monitors, stop=stop, resume=resume).run()

    def result(self, status: str, error: str | None = None, ended_by: str | None = None,
               signal: str | None = None) -> SearchResult:
        """What the run found and cost, its profiler stopped; `ended_by`: the budget that ended a completed run."""
        return SearchResult(self.archive, self.iterations, self.evaluator.n_neighbors, self.profiler.wall,
                            self.profiler.split(), status, error, self.starts, signal, self.target, self.reached,
                            self.walk, ended_by, resumed=self.resumed, trace=self.trace)

    def snapshot(self) -> dict | None:
        """The search's whole state after the step just taken, for a checkpoint (search/checkpoint.py: arrays,
        numbers, strings, lists and dicts), or None where it cannot be taken at this step (the next is tried).
        A search adds what its loop holds (super().snapshot() | ...); restore() on a search made from the same
        configuration then goes on exactly as this one would have."""
        return {"iterations": self.iterations, "starts": self.starts, "natural_end": self.natural_end,
                "walk": self.walk, "draws": self._draws, "rng": self.rng.bit_generator.state,
                "archive": archive_state(self.archive),
                "profile": {"elapsed": self.profiler.elapsed(), "seconds": dict(self.profiler.seconds)}}

    def restore(self, state: dict) -> None:
        """Take `state` (snapshot()'s) after the warm-up, before the first step: steps() then goes on from it."""
        self.iterations, self.starts, self.natural_end = state["iterations"], state["starts"], state["natural_end"]
        self.walk, self._draws = state["walk"], state["draws"]
        self.rng.bit_generator.state = state["rng"]
        restore_archive(self.archive, state["archive"])
        self.profiler.resume(state["profile"]["elapsed"], state["profile"]["seconds"])
        self.resumed = {"iterations": self.iterations, "seconds": state["profile"]["elapsed"]}

    @abstractmethod
    def steps(self) -> Iterator[None]:
        """The search's loop as a generator: it yields after each step it counts (count_iteration), and ends at the
        search's cap (self.budget) or its natural end; the runner (search/loop.py) advances it and may close it
        after any step (its `finally` blocks then hand the work in progress to the run's archive)."""

    def new_archive(self) -> Archive:
        return Archive(self.problem.n_obj, self.problem.encoding.size, self.problem.dtype, self.problem.encoding.dtype)

    def draw_keys(self, count: int, advance: bool = True) -> DrawKeys | None:
        """The draw keys (seed, counter) of the next `count` evaluations, in order, where the neighborhood
        samples: the same seed gives the same draws, on every backend; None otherwise. The counter moves past
        them unless `advance` is false (a warm-up's walk, which the search repeats)."""
        if self._draw_seed is None:
            return None
        keys = DrawKeys(self._draw_seed, self._draws + 1, count)
        if advance:
            self._draws += count
        return keys

    def draw_key(self) -> np.ndarray | None:
        """The draw key of the next evaluation (draw_keys), or None."""
        keys = self.draw_keys(1)
        return None if keys is None else keys[0]

    def warm_up(self) -> None:
        """Compile what the search calls (Numba functions, CUDA kernels) before the clock starts."""
        x = self.problem.encoding.initial()
        key = self.draw_key()
        F = self.evaluator.evaluate(x, key)
        self.archive.add(F[:0], self.nbh.apply_many(x, np.arange(0), key))
        nondominated(F[:2])
        dominates(F[:2], F[0])

    def _random_start(self, archive: Archive | None = None) -> tuple[np.ndarray, np.ndarray]:
        """A random solution and its objective vector, offered to `archive` (by default the run's)."""
        self.starts += 1
        x = self.problem.random_solution(self.rng)
        f = self.problem.evaluate_one(x)
        with self.profiler.section("archiving"):
            (self.archive if archive is None else archive).add(f[None], x[None])
        return x, f

    def archive_size(self, reported: int) -> int:
        """The run's archive now, for a progress display (`reported`: the size the last step reported). Not meant for
        every iteration: a search whose run's archive is merged later (PLS's starts) merges a copy here."""
        return reported

    def reported_size(self) -> int:
        """The archive size the last step reported: the run's archive's, or that of the step's work (a PLS start)."""
        return len(self.archive) if self.reported is None else self.reported

    def trace_values(self) -> tuple[int, int, list[np.ndarray]]:
        """What a trace row (search/trace.py) records of the run now: its iterations, neighbors evaluated and the
        objective vectors its archives hold (the run's and work in progress'; some may be dominated): their arrays,
        which an archive replaces rather than changes (a row keeps them as they are, and is measured later)."""
        return self.iterations, self.iterations * self.evaluator.n_neighbors, [a.F for a in self._archives()]

    def count_iteration(self, archive_size: int | None = None, steps: int = 1) -> None:
        """`steps` more neighborhood evaluations, and the archive size to report (by default the run's); the loop
        yields after it (Search.steps)."""
        self.iterations += steps
        self.reported = archive_size

    def _archives(self) -> list[Archive]:
        """The archives that hold what the run has found: the run's, and those of work in progress."""
        return [self.archive]

    def holds_target(self) -> bool:
        """Whether the run's archives hold a solution that weakly dominates the target (budget.Target)."""
        return any(weakly_dominated(a.F, self.goal) for a in self._archives())
