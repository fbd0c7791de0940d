"""ILS-3opt for the TSP (Delévacq et al. 2012): a population of iterated local searches run on CPU cores (Numba, the
reference) or on the GPU by one of three strategies, in chunks of iterations between which the budgets (it_total
split over the population, time, target) are checked; the tours never depend on the chunks or the strategy."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from mols.algorithms.ils3opt.greedy import greedy_tour
from mols.algorithms.ils3opt.merge import ROUND, MergedRounds, merge_window
from mols.algorithms.ils3opt.population import max_segment, start_lengths, start_tours
from mols.algorithms.ils3opt.strategies import (
    GPU_STRATEGIES,
    RKBI_STRATEGIES,
    check_options,
    default_lists,
    make_population,
    population_shape,
)
from mols.backends.threads import numba_threads
from mols.errors import MolsError
from mols.problems.tsp.candidates import DEFAULT_K, candidate_lists
from mols.problems.tsp.model import Tsp
from mols.search.budget import Budgets, Iterations, Target, Time
from mols.search.loop import Runner

# rkbi's samples per step in the paper (its k, Table 3's runs), and where it gives none
PAPER_SAMPLES = {"kroA100": 5_500, "lin318": 11_000, "rat783": 10_000, "fl1577": 1_200, "pcb3038": 1_000}
DEFAULT_SAMPLES = 10_000
POPULATIONS = (1, 8, 64, 512, 2048)  # the paper's nbsol
DEFAULT_ITERATIONS = 1_048_576  # the paper's it_total
CHUNK_SECONDS = 0.25  # a step is doubled while it takes under this: a launch of independent solutions' iterations,
MERGED_SECONDS = 0.02  # or of merged rounds, which meet the host every round anyway: the trace and budgets read sooner


@dataclass(frozen=True)
class IlsResult:
    """What a population found: every solution's best length, the best tour, iterations and seconds."""

    strategy: str
    population: int
    lengths: np.ndarray  # (P,) best length of each solution
    tour: np.ndarray  # (n,) the shortest tour found
    iterations: int  # ILS iterations made by each solution (after its first descent)
    seconds: float  # search time: candidate lists, start tours, descents and iterations (compilation excluded)
    ended_by: str  # iterations, time, target or stop
    reached_seconds: float | None  # when a tour at or below the target was first seen (between chunks)

    @property
    def best(self) -> int:
        return int(self.lengths.min())

    @property
    def total_iterations(self) -> int:
        return self.iterations * self.population


def default_samples(problem: Tsp) -> int:
    return PAPER_SAMPLES.get(problem.instance_name, DEFAULT_SAMPLES)


def warm_up(problem: Tsp, strategy: str, threads: int | None, samples: int = 1, population: int = 1,
            merge: int = 0, greedy: bool = False) -> None:
    """Compile what the run calls (Numba functions; the strategy's kernel for this instance and population; merged
    rounds' functions and kernels: one round of one solution) before the clock."""
    xy = problem.xy[0]
    n = problem.n
    with numba_threads(threads):
        cand = candidate_lists(xy, DEFAULT_K)
        tours = np.empty((1, n), np.int32)
        start_tours(xy, cand, np.uint64(0), tours)
        if greedy:
            greedy_tour(xy, cand, problem.att)
        pop = make_population(strategy, xy, cand, 0, tours, start_lengths(xy, tours, problem.att), max_segment(n),
                              problem.att, samples, population, bool(merge))
        if merge:
            MergedRounds(pop, 0, n, merge_window(n, max_segment(n)), 1).run(0, 1 + ROUND)
        else:
            pop.run(0, 0)


def make_run(problem: Tsp, strategy: str = "cpu", population: int | None = None, iterations: int | None = None,
             time_budget: float | None = None, target: int | None = None, seed: int = 0, threads: int | None = None,
             candidates: int = DEFAULT_K, samples: int | None = None, merge: int | None = None,
             blocks: int | None = None, lists: str | None = None, start: str | None = None) -> IlsRun:
    """One ILS-3opt run (nothing runs yet: IlsRun.run). Without iterations or time: the paper's it_total. merge 0:
    the solutions are independent (the paper's; making every solution the best one every E iterations was tried,
    and was worse on pcb3038); merge S: merged rounds (ils_merge) in islands of S solutions, the budget of
    iterations rounded up to whole rounds. population, merge None: the strategy's (strategies.population_shape).
    `samples`: rkbi's per step (default: the paper's k for its instances, else DEFAULT_SAMPLES); `blocks`: rkbi's
    per solution on the GPU (its launch only; None: by the samples); `lists`: nearest or quadrant candidate lists (None:
    the strategy's); `start`: the start tours, nearest (None) or greedy (greedy.greedy_tour)."""
    population, merge = population_shape(strategy, problem.n, population, merge)
    check_options(problem, strategy, population, merge)
    if iterations is None and time_budget is None:
        iterations = DEFAULT_ITERATIONS
    per_solution = math.ceil(iterations / population) if iterations is not None else None
    samples = (samples or default_samples(problem)) if strategy in RKBI_STRATEGIES else 0
    return IlsRun(problem, strategy, population, per_solution, time_budget, target, seed, threads, candidates, samples,
                  merge, blocks, lists or default_lists(strategy), start == "greedy")


def run_ils3opt(problem: Tsp, strategy: str = "cpu", population: int | None = None,
                iterations: int | None = None, time_budget: float | None = None, target: int | None = None,
                seed: int = 0, threads: int | None = None, stop=None, candidates: int = DEFAULT_K,
                samples: int | None = None, merge: int | None = None, blocks: int | None = None,
                lists: str | None = None, start: str | None = None) -> IlsResult:
    """make_run's run to its end (compiled first, outside the time); `stop` (mols.signals.StopSignals) ends it after
    the current chunk."""
    return make_run(problem, strategy, population, iterations, time_budget, target, seed, threads, candidates,
                    samples, merge, blocks, lists, start).run(stop)


class IlsRun:
    """An ILS-3opt population run by the runner (search/loop.py): a step is the first descents, then a chunk of each
    solution's iterations (doubled while one takes under CHUNK_SECONDS, MERGED_SECONDS in merged rounds); its
    budgets: a length (Target), the time and each solution's iterations (passed down: a chunk never passes them, save
    to end a merged round)."""

    natural_end = False
    resumable = True  # snapshot() and restore() as Search's

    def __init__(self, problem: Tsp, strategy: str, population: int, per_solution: int | None,
                 time_budget: float | None, target: int | None, seed: int, threads: int | None, candidates: int,
                 samples: int, merge: int, blocks: int | None = None, lists: str = "nearest", greedy: bool = False):
        self.problem, self.strategy, self.population, self.target = problem, strategy, population, target
        self.seed, self.threads, self.candidates, self.samples, self.merge = seed, threads, candidates, samples, merge
        self.blocks, self.quadrant, self.greedy = blocks, lists == "quadrant", greedy
        self.budgets = Budgets(budget for budget in (None if target is None else Target(target),
                                                     None if per_solution is None else Iterations(per_solution, True),
                                                     None if time_budget is None else Time(time_budget)) if budget)
        self.monitors, self.iterations, self.reached, self.pop, self.profiler = [], 0, None, None, None
        self.granule = self.chunk = 1  # iterations a step is a multiple of; the next step's (doubling)
        self.resumed, self.trace = None, None  # SearchResult.resumed; the trace a runner gives it (search/trace.py)

    def run(self, stop=None, monitors=(), resume: dict | None = None) -> IlsResult:
        """The run by the runner to its end (Search.run's arguments); an error that failed it is raised."""
        runner = Runner(self, monitors=monitors, stop=stop, resume=resume)
        result = runner.run()
        if runner.status == "failed":  # as the loop of its own did: the error reaches the caller
            raise runner.exception
        return result

    def warm_up(self) -> None:
        warm_up(self.problem, self.strategy, self.threads, self.samples, self.population, self.merge, self.greedy)

    def holds_target(self) -> bool:
        return self.pop.best_lengths().min() <= self.target

    def trace_values(self) -> tuple[int, int, np.ndarray] | None:
        """A trace row (search/trace.py): ILS iterations (also as evaluations, as its SearchResult) and best length."""
        done = self.iterations * self.population  # None before the first descents
        return None if self.pop is None else (done, done, self.pop.best_lengths().min(keepdims=True)[:, None])

    def steps(self):
        with numba_threads(self.threads):
            if self.pop is None:  # else restored from a checkpoint, where the first descents were made
                self._start()
                yield
            pop, granule, cap = self.pop, self.granule, self.budgets.cap
            while self.iterations < cap:
                done = self.iterations
                step = granule * math.ceil(min(self.chunk, cap - done) / granule)
                began = time.perf_counter()
                pop.run(done + 1, done + 1 + step)
                self.iterations = done + step
                if time.perf_counter() - began < (MERGED_SECONDS if self.merge else CHUNK_SECONDS):
                    self.chunk *= 2
                yield

    def snapshot(self) -> dict | None:
        """The run's whole state after a step (Search.snapshot's contract): its iterations, the next chunk, the clock
        and the population's arrays (copied from the device: a checkpoint resumes on either backend). None at the
        step that reaches the target: the run ends there."""
        if self.target is not None and self.holds_target():
            return None
        return {"iterations": self.iterations, "chunk": self.chunk, "population": self.pop.state(),
                "profile": {"elapsed": self.profiler.elapsed(), "seconds": dict(self.profiler.seconds)}}

    def restore(self, state: dict) -> None:
        """Take snapshot()'s `state` after the warm-up, before the first step: steps() goes on from its chunk."""
        population = state["population"]
        shape = population["tours"].shape
        if shape != (self.population, self.problem.n):
            raise MolsError(f"the checkpoint holds {shape[0]} tours of {shape[1]} cities, and this run has "
                            f"{self.population} of {self.problem.n}")
        self.profiler.resume(state["profile"]["elapsed"], state["profile"]["seconds"])
        with numba_threads(self.threads):
            cand = candidate_lists(self.problem.xy[0], self.candidates, self.quadrant)
            pop = self._population(cand, np.array(population["tours"], np.int32),
                                   np.array(population["lengths"], np.int64))
            pop.load(population)
        self.pop, self.iterations, self.chunk = pop, state["iterations"], state["chunk"]
        # in run.json's units: the iterations of all solutions
        self.resumed = {"iterations": self.iterations * self.population, "seconds": state["profile"]["elapsed"]}

    def _population(self, cand: np.ndarray, tours: np.ndarray, lengths: np.ndarray):
        """The population of these tours (P, n) of these lengths, on the strategy's backend (in merged rounds where
        asked); its steps' granule."""
        problem, n = self.problem, self.problem.n
        pop = make_population(self.strategy, problem.xy[0], cand, self.seed, tours, lengths, max_segment(n),
                              problem.att, self.samples, merged=bool(self.merge), blocks=self.blocks)
        if self.merge:
            pop = MergedRounds(pop, self.seed, n, merge_window(n, max_segment(n)), self.merge)
        self.granule = self.chunk = pop.round if self.merge else 1
        return pop

    def _start(self) -> None:
        """The candidate lists, the start tours and their first descents (iteration 0)."""
        xy = self.problem.xy[0]
        cand = candidate_lists(xy, self.candidates, self.quadrant)
        tours = np.empty((self.population, self.problem.n), np.int32)
        if self.greedy:  # one tour for all: made once, in milliseconds
            tours[:] = greedy_tour(xy, cand, self.problem.att)
        else:
            start_tours(xy, cand, np.uint64(self.seed), tours)
        pop = self._population(cand, tours, start_lengths(xy, tours, self.problem.att))
        pop.run(0, 1)
        self.pop = pop

    def result(self, status: str, error: str | None = None, ended_by: str | None = None,
               signal: str | None = None) -> IlsResult | None:
        """The population's result (None where the run failed: run_ils3opt raises its error)."""
        if status == "failed":
            return None
        if self.pop is None:  # stopped before its first step: the start tours, descended, as the loop always made
            with numba_threads(self.threads):
                self._start()
        lengths = self.pop.best_lengths()
        tour = self.pop.best_tour(int(np.argmin(lengths)))
        return IlsResult(self.strategy, self.population, lengths, tour, self.iterations, self.profiler.wall,
                         ended_by or "stop", None if self.reached is None else self.reached.seconds)


def config_run(config) -> IlsRun:
    """The IlsRun of a RunConfig (-p tsp -a ils --strategy S), its instance loaded (nothing runs yet)."""
    from mols.problems import load_problem

    target = None if config.target is None else int(np.atleast_1d(config.target)[0])
    return make_run(load_problem("tsp", config.instance), config.strategy, config.population, config.iterations,
                    config.time, target, config.seed, config.threads, merge=config.merge or None, lists=config.lists,
                    start=config.start_tours)


def config_result(config, stop=None, monitors=(), resume: dict | None = None, run: IlsRun | None = None):
    """Run the ILS-3opt of a RunConfig (`run`: config_run's, made here where not given), heard by `monitors`, from a
    checkpoint's state where `resume` is one: its SearchResult (the best tour as the archive's one row and, in
    run.json's details, every solution's length and the gap to the optimum where tsp_opt.csv knows it) and where it
    ran, (problem, device, threads, label): RunContext.on's arguments."""
    from mols.archive import Archive
    from mols.backends.cpu import cpu_name
    from mols.backends.cuda import gpu_name
    from mols.problems.tsp.instance import optimal_lengths
    from mols.search.base import Reached, SearchResult

    run = run or config_run(config)
    problem, population, target = run.problem, run.population, run.target
    result = run.run(stop, monitors, resume)
    archive = Archive(1, problem.n, problem.dtype, problem.encoding.dtype)
    archive.add(np.array([[result.best]], dtype=problem.dtype), result.tour[None])
    optimum = optimal_lengths().get(problem.instance_name)
    details = {"strategy": result.strategy, "population": population, "merge_island": run.merge or None,
               "iterations_requested": config.iterations, "iterations_per_solution": result.iterations,
               "candidates": DEFAULT_K, "candidate_lists": "quadrant" if run.quadrant else "nearest",
               "start_tours": "greedy" if run.greedy else "nearest",
               "rkbi_samples": default_samples(problem) if config.strategy in RKBI_STRATEGIES else None, "max_segment": max_segment(problem.n), "best_length": result.best,
               "optimum": optimum, "gap_percent": None if optimum is None else 100.0 * (result.best / optimum - 1),
               "solutions_optimal": None if optimum is None else int((result.lengths == optimum).sum()),
               "lengths": result.lengths.tolist()}
    profile = {"evaluation": {"seconds": result.seconds, "percent": 100.0}}
    reached = None if result.reached_seconds is None else Reached(target, result.total_iterations,
                                                                  result.reached_seconds)
    status = "interrupted" if result.ended_by == "stop" else "completed"
    ended_by = None if status == "interrupted" else result.ended_by
    search_result = SearchResult(archive, result.total_iterations, 1, result.seconds, profile, status, None,
                                 population, getattr(stop, "name", None) if status == "interrupted" else None, target, reached, None,
                                 ended_by, details, resumed=run.resumed, trace=run.trace)
    device = "gpu" if result.strategy in GPU_STRATEGIES else "cpu"
    label = f"{device} x{config.threads}" if device == "cpu" and config.threads else device
    return search_result, (problem, cpu_name() if device == "cpu" else gpu_name(),
                           config.threads if device == "cpu" else None, label)

