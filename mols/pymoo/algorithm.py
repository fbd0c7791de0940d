"""mols' searches as pymoo Algorithms: minimize(MolsProblem(...), PLS(), ("n_eval", 100_000), seed=1) runs one mols
search, a pymoo generation per mols step, and returns its archive as res.X and res.F; how a termination becomes mols'
budget: docs/internals.md."""

from __future__ import annotations

import time

import numpy as np
from pymoo.core.algorithm import Algorithm
from pymoo.core.population import Population
from pymoo.termination.default import DefaultMultiObjectiveTermination, DefaultSingleObjectiveTermination
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination
from pymoo.termination.max_time import TimeBasedTermination

from mols.errors import MolsError
from mols.problems import PROBLEMS
from mols.pymoo.problem import MolsProblem
from mols.runner import DEFAULT_ITERATIONS, SearchResult, build_search
from mols.search.loop import Runner


class Deadline:
    """A stop request (the protocol of mols.signals.StopSignals: `requested`, `name`) once `seconds` have passed."""

    name = "time"

    def __init__(self, seconds: float):
        self.end = time.perf_counter() + seconds

    @property
    def requested(self) -> bool:
        return time.perf_counter() >= self.end


def mols_budget(termination, n_neighbors: int, iterations: int) -> tuple[int, float | None]:
    """mols' iterations and time limit in seconds (None: none) for a pymoo termination (docs/internals.md)."""
    if isinstance(termination, MaximumFunctionCallTermination):
        return max(1, int(termination.n_max_evals) // n_neighbors), None
    if isinstance(termination, MaximumGenerationTermination):
        return int(termination.n_max_gen), None
    if isinstance(termination, TimeBasedTermination):
        return iterations, float(termination.max_time)
    if isinstance(termination, (DefaultMultiObjectiveTermination, DefaultSingleObjectiveTermination)):
        return iterations, None
    raise MolsError(f"mols.pymoo: a termination of {type(termination).__name__} has no mols budget; give "
                    "('n_eval', N), ('n_gen', N), ('n_iter', N) or ('time', T)")


class MolsSearch(Algorithm):
    """A mols search (`algorithm`, a RunConfig algorithm) as a pymoo Algorithm, on a MolsProblem. `options` are
    RunConfig fields (variant, weights, tenure, partitions, backend, threads, archive, ...; the backend is the
    problem's by default); `neighborhood` a name or a Neighborhood (default: the problem's usual one);
    `iterations` the budget where the termination gives none (docs/internals.md)."""

    def __init__(self, algorithm: str, neighborhood=None, iterations: int = DEFAULT_ITERATIONS, initial=None,
                 **options):
        super().__init__()
        self.mols_algorithm, self.neighborhood, self.iterations = algorithm, neighborhood, iterations
        self.initial, self.options = initial, options
        self.mols_result: SearchResult | None = None
        self.live = Live()

    def _setup(self, problem, **kwargs) -> None:
        if not isinstance(problem, MolsProblem):
            raise MolsError(f"mols.pymoo's searches run on a MolsProblem, not a {type(problem).__name__}")

    def has_next(self) -> bool:
        """Until the mols search ends: its budgets are the termination's (mols_budget), checked after each step."""
        return self.live.runner is None or self.live.runner.status is None

    def next(self) -> None:
        """One step of the mols search (an iteration, or a device batch) as one generation: pymoo's callback, display
        and history see each; the search's end terminates the run."""
        if not self.is_initialized:
            self._initialize()
            self.live.runner = self._runner()
            self.live.runner.start()
            self.is_initialized = True
        runner, search = self.live.runner, self.live.runner.search
        before = search.iterations
        going = runner.step()
        self.evaluator.n_eval += (search.iterations - before) * search.evaluator.n_neighbors
        if search.archive.F is not self.live.F or not going:
            self.live.F = search.archive.F
            F, X = search.archive.members()
            self.pop = Population.new(X=X.copy(), F=F.astype(np.float64))
        if not going:
            self.mols_result = runner.result
            if runner.status == "failed":
                raise MolsError(f"the mols search failed: {runner.result.error}")
            self.termination.terminate()
        self._post_advance()
        if not going:
            self.finalize()

    @property
    def trace(self):
        """The mols run's trace (mols.search.trace.Trace: rows of seconds, iterations, neighbors evaluated, archive
        size, best values and hypervolume), as it stands: the rows so far while it runs (also from the history's
        copies, which share the running search), the whole once it has ended; None before the first step."""
        return None if self.live.runner is None else self.live.runner.trace

    def result(self):
        """pymoo's Result, with the mols run's trace as `trace` beside res.X and res.F."""
        res = super().result()
        res.trace = self.trace
        return res

    def _set_optimum(self) -> None:
        self.opt = self.pop  # the archive: non-dominated already, in its member order

    def _runner(self) -> Runner:
        mols, nbh = self.problem.mols, self.neighborhood
        if nbh is None:
            if mols.name not in PROBLEMS:
                raise MolsError(f"give the neighborhood to search {mols.name} with (neighborhood=...)")
            nbh = PROBLEMS[mols.name].neighborhood
        nbh = mols.neighborhood(nbh) if isinstance(nbh, str) else nbh
        iterations, seconds = mols_budget(self.termination, nbh.n_neighbors(mols.n), self.iterations)
        seed = self.seed if self.seed is not None else int(self.random_state.integers(2**31))
        initial = self.initial.get("X") if isinstance(self.initial, Population) else self.initial
        if initial is not None:  # pymoo's operators may leave integer variables as floats, as _evaluate takes them
            initial = np.asarray(initial).astype(mols.encoding.dtype)
        options = {"backend": self.problem.backend, **self.options}
        search = build_search(mols, neighborhood=nbh, initial=initial, algorithm=self.mols_algorithm,
                              iterations=iterations, seed=int(seed), **options)
        return Runner(search, stop=None if seconds is None else Deadline(seconds))


class Live:
    """The running search (its runner) and the archive's vectors pymoo's population was made from: shared, not
    copied, by the copies of the algorithm that pymoo's save_history keeps (a running generator cannot be copied)."""

    def __init__(self):
        self.runner, self.F = None, None

    def __deepcopy__(self, memo) -> Live:
        return self


class PLS(MolsSearch):
    """Pareto local search, PLS-1 (mols.algorithms.pls.search): `variant` nondominated (PLS-≠) or dominating (PLS-√).
    `initial`: a population (an array (B, size), or a pymoo Population such as a genetic algorithm's res.pop)
    whose non-dominated solutions it starts from, instead of a random solution."""

    def __init__(self, variant: str = "nondominated", initial=None, **kwargs):
        super().__init__("pls", initial=initial, variant=variant, **kwargs)


class TabuSearch(MolsSearch):
    """Aggregated tabu search (mols.algorithms.tabu.search): one tabu run per weight vector (`weights`: one vector; else the
    lattice of `partitions`), sharing the budget; `tenure` (default: the problem size)."""

    def __init__(self, **kwargs):
        super().__init__("tabu", **kwargs)
