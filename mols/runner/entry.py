"""Making and running one search: from a RunConfig (its instance loaded) or from your own Problem."""

from __future__ import annotations

import numpy as np

from mols.algorithms.registry import REGISTRY
from mols.algorithms.tabu.selection import tuned_iteration
from mols.backends import prepare
from mols.errors import MolsError, OptionError
from mols.neighborhoods import Neighborhood
from mols.problems import Problem, load_problem
from mols.runner.config import RunConfig
from mols.search.base import OnIteration, Search, SearchResult
from mols.signals import StopSignals


def build_search(config: RunConfig | Problem, on_iteration: OnIteration | None = None,
                 neighborhood: Neighborhood | str | None = None, initial=None, *, loaded: Problem | None = None,
                 **options) -> Search:
    """Make the search (nothing runs yet): from a RunConfig, loading its instance (or taking `loaded`, its
    run_problem already made: searches that differ only by their seeds share it); or on your own Problem, with
    `neighborhood` (a Neighborhood, or a registered name) and RunConfig's fields as options.
    `initial` (PLS only): a population (B, size) whose non-dominated solutions PLS starts from."""
    if isinstance(config, Problem):
        problem = config
        if neighborhood is None:
            raise MolsError(f"give the neighborhood to search {problem.name} with (a Neighborhood, or a name)")
        nbh = neighborhood if isinstance(neighborhood, Neighborhood) else problem.neighborhood(neighborhood)
        if len(problem.objectives) > 1:  # a biTSP is a Tsp named tsp, whose one-objective default is ILS
            options.setdefault("algorithm", "pls")
        config = RunConfig(instance=problem.instance_name, problem=problem.name, neighborhood=nbh.name, **options)
        problem = problem.with_objectives(config.objectives)
    else:
        problem = run_problem(config) if loaded is None else loaded
        nbh = problem.neighborhood(config.neighborhood)
    evaluator = prepare(problem, nbh, config.spec, iteration=tuned_iteration)
    return make_search(config, problem, nbh, evaluator, on_iteration, initial)


def run_problem(config: RunConfig) -> Problem:
    """The problem of `config`: its instance loaded, optimising config.objectives (MolsError for bad names)."""
    return load_problem(config.problem, config.instance).with_objectives(config.objectives)


def make_search(config: RunConfig, problem: Problem, nbh: Neighborhood, evaluator, on_iteration=None,
                initial=None) -> Search:
    """The search `config` describes, on a problem, neighborhood and evaluator already made (which several
    searches may share, algorithms/tabu/batch.py); `initial` as build_search's."""
    entry = REGISTRY[config.algorithm]
    if initial is not None and not entry.initial:
        raise OptionError("initial", f": algorithm {config.algorithm} does not start from an initial population "
                          f"(only {' or '.join(name for name, one in REGISTRY.items() if one.initial)})")
    budgets = {"target": config.target if config.target is not None else problem.target, "time": config.time,
               "evaluations": config.evaluations} | ({"initial": initial} if initial is not None else {})
    return entry.build(problem, nbh, evaluator, config.iterations, np.random.default_rng(config.seed), on_iteration,
                       options=config.options, **budgets)


def solve(config: RunConfig | Problem, on_iteration: OnIteration | None = None, stop: StopSignals | None = None,
          neighborhood: Neighborhood | str | None = None, initial=None, **options) -> SearchResult:
    """Run one search: a RunConfig (a registered problem and instance), or your own Problem object with
    `neighborhood` and RunConfig's fields as keywords (algorithm="tabu", iterations=..., seed=...,
    backend=...; budgets: time=..., evaluations=..., target=...; PLS: restarts=0 for the natural end). PLS given
    `initial`, a population (B, size), starts from its non-dominated solutions instead of a random one
    (algorithms/pls/search.py). Bad input raises MolsError before it starts; once it runs, an interruption or a
    failure still returns the archive found so far (see SearchResult.status). Without `stop`, SIGINT
    (Ctrl-C), SIGTERM and SIGHUP stop the search at its next iteration while it runs (called from the
    main thread), and the result says which signal did. -p tsp -a ils with a strategy runs its ILS-3opt population
    (algorithms/ils3opt/search.py)."""
    if isinstance(config, RunConfig) and getattr(config.options, "strategy", None) is not None:
        from mols.algorithms.ils3opt.search import config_result

        def run(signals):
            return config_result(config, signals)[0]
    else:
        run = build_search(config, on_iteration, neighborhood, initial, **options).run
    if stop is not None:
        return run(stop)
    with StopSignals(phase="search") as own:
        return run(own)
