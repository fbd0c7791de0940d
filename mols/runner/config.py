"""What defines a run: `RunConfig`, its options common to every algorithm declared once here, the algorithm's own in
its options object (mols/algorithms/registry.py); validated once where it is made."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from mols.algorithms.ils3opt.options import CPU_DEFAULT_STRATEGY, DEFAULT_STRATEGY, ILS3optOptions
from mols.algorithms.pls.options import VARIANTS
from mols.algorithms.registry import REGISTRY, takers
from mols.algorithms.tabu.options import DEFAULT_PARTITIONS
from mols.backends.spec import ARCHIVES, DEVICES, GENERATIONS, MEMORIES, SELECTIONS, BackendSpec
from mols.errors import OptionError, flag
from mols.neighborhoods import NAMES
from mols.problems import PROBLEMS, default_algorithm, problem_entry
from mols.search.options import (
    BACKEND,
    BUDGET,
    DEFAULT_ITERATIONS,
    PROBLEM,
    SEARCH,
    AlgorithmOptions,
    check,
    check_budget,
    default_iterations,
    option,
    parse_numbers,
)

ALGORITHMS = tuple(REGISTRY)  # the built-in algorithms' names


def parse_target(text: str | None) -> float | tuple[float, ...] | None:
    """The target written as text: one number, or numbers separated by commas (one per objective)."""
    if text is None:
        return None
    values = parse_numbers(text, "target")
    if not values:
        raise OptionError("target", ": expected a value per objective, got nothing")
    return values[0] if len(values) == 1 else values


@dataclass(frozen=True, init=False)
class RunConfig:
    """Everything that defines a run: the options every run takes, and `options`, the algorithm's (keywords such as
    tenure=3 are routed there). Unknown keywords are a TypeError; bad values, or another algorithm's options, an
    OptionError naming the parameter."""

    instance: str
    problem: str = option("flowshop", "Problem type.", PROBLEM, short="-p", choices=tuple(PROBLEMS), open=True)
    algorithm: str = option(None, "The search (see the README; default: the problem's, ProblemEntry.algorithm).",
                            SEARCH, short="-a")
    neighborhood: str | None = option(None, "Moves (default: the problem's usual one, insertion for the flowshop).",
                                      PROBLEM, short="-n", choices=NAMES, open=True)
    objectives: tuple[str, ...] | None = option(
        None, "Optimise only these of the problem's objectives, in this order, e.g. 'makespan,tardiness' (default: "
        "all). front.csv still lists every objective; run.json names those optimised.", PROBLEM, cli=str)
    seed: int = option(0, "Seed of every random choice.", SEARCH, short="-s", minimum=0)
    iterations: int | None = option(None, "Budget: whole-neighborhood evaluations (default: 10,000; none where "
                                    "--time or --evaluations is given).", BUDGET, short="-i")
    time: float | None = option(None, "Budget: seconds of search.", BUDGET)
    evaluations: int | None = option(None, "Budget: neighbors evaluated (iterations x neighbors per iteration).",
                                     BUDGET)
    target: float | tuple[float, ...] | None = option(
        None, "Stop when the archive holds a solution at least this good in every objective: one value per "
        "objective, e.g. '60,300,2' (default: the problem's; the PPP stops at 0, a solution).", BUDGET, cli=str,
        parse=parse_target)
    backend: str = option("auto", "auto = gpu where CuPy finds a device.", BACKEND, short="-b", choices=DEVICES)
    threads: int | None = option(None, "CPU backend: cores to use (default: all).", BACKEND, minimum=1)
    archive: str | None = option(None, "PLS: filter neighbors on the host (cpu) or the device (gpu; the default on "
                                 "the gpu backend).", BACKEND, choices=ARCHIVES, late=True,
                                 folder=lambda archive, config: archive_part(config))
    block: int | None = option(None, "GPU backend: threads per block of the kernels, a multiple of 32 (default: "
                               "the kernels' own; --tune: tuned once per device, see the README).", BACKEND)
    tune: bool = option(False, "GPU backend without --block: tune the launch (threads per block, the selection's "
                        "grid) in the search's first iterations the first time (Algorithm 3) and remember it, instead "
                        "of the kernels' default launch.", BACKEND)
    generation: str = option("device", "GPU backend: where the moves are made: decoded from each thread's id "
                             "(device), or built on the host and copied each iteration (host; the papers' variant).",
                             BACKEND, choices=GENERATIONS, folder=lambda value, config: variant_part(value, "device",
                                                                                                     "gen"))
    selection: str = option("device", "GPU backend: where the best neighbor is chosen: reduced on the device, or the "
                            "whole fitness structure copied back and chosen on the host (copy).", BACKEND,
                            choices=SELECTIONS, folder=lambda value, config: variant_part(value, "device", "sel"))
    memory: str = option("default", "GPU backend: how the kernels read the instance: their own way, plain global "
                         "loads, the read-only cache, or staged in shared memory (where the problem has it).", BACKEND,
                         choices=MEMORIES, folder=lambda value, config: variant_part(value, "default", "mem"))
    gpus: int = option(1, "GPU backend: GPUs that share each neighborhood, a contiguous share of its moves each "
                       "(tabu, its, hc, ils); the results are one GPU's.", BACKEND, minimum=1, late=True,
                       folder=lambda value, config: None if value == 1 else f"{value}gpus")
    options: AlgorithmOptions | None = None  # the algorithm's; None: its defaults

    def __init__(self, instance: str, options: AlgorithmOptions | None = None, **given):
        algorithm = given["algorithm"] = given.get("algorithm") or default_algorithm(given.get("problem", "flowshop"))
        entry = REGISTRY.get(algorithm)
        if entry is None:
            raise OptionError("algorithm", f": unknown algorithm {algorithm!r}; choose one of {', '.join(REGISTRY)}")
        own = {name: given.pop(name) for name in list(given) if name in entry.options.__dataclass_fields__}
        if options is None:
            options = entry.options(**own)
        elif not isinstance(options, entry.options):
            raise OptionError("options", f"are {type(options).__name__}, not algorithm {algorithm}'s")
        else:
            options = dataclasses.replace(options, **own)
        common = {f.name: f for f in dataclasses.fields(RunConfig)}
        refuse_foreign({name: value for name, value in given.items() if name not in common}, algorithm)
        object.__setattr__(self, "instance", instance)
        object.__setattr__(self, "options", options)
        for name, f in common.items():
            if name not in ("instance", "options"):
                object.__setattr__(self, name, given.get(name, f.default))
        self._resolve()

    def _resolve(self) -> None:
        """Check the common options and resolve the defaults that depend on others (the backend: once, here)."""
        check(self)
        strategy = default_strategy(self)
        if strategy is not None:
            object.__setattr__(self, "options", dataclasses.replace(self.options, strategy=strategy))
        if isinstance(self.options, ILS3optOptions):
            self.options.check_strategy()
        if isinstance(self.options, ILS3optOptions) and self.options.strategy is not None:
            check_ils3opt(self)
            object.__setattr__(self, "neighborhood", "3opt")
            object.__setattr__(self, "backend", "cpu" if self.options.strategy.startswith("cpu") else "gpu")
        if self.objectives is not None:
            names = self.objectives.split(",") if isinstance(self.objectives, str) else self.objectives
            object.__setattr__(self, "objectives", tuple(name.strip() for name in names))
        if self.neighborhood is None:
            object.__setattr__(self, "neighborhood", REGISTRY[self.algorithm].neighborhood
                               or problem_entry(self.problem).neighborhood)
        object.__setattr__(self, "iterations", default_iterations(self.iterations, self.time, self.evaluations))
        check_budget(self.iterations, self.time, self.evaluations)
        if self.archive is not None and not REGISTRY[self.algorithm].archive:
            raise OptionError("algorithm", f"{self.algorithm} does not take {{archive}} (only "
                              f"{' or '.join(name for name, entry in REGISTRY.items() if entry.archive)})", "archive")
        spec = self.spec  # the one place auto is resolved
        if spec.device == "cpu" and (self.block is not None or self.tune):
            raise OptionError("block", "and {tune} set the gpu backend's launches; this run is on the cpu", "tune")
        variants = [name for name, default in (("generation", "device"), ("selection", "device"),
                                               ("memory", "default")) if getattr(self, name) != default]
        if spec.device == "cpu" and variants:
            raise OptionError(variants[0], f"{getattr(self, variants[0])} sets how the gpu backend evaluates; this run "
                              "is on the cpu")
        if self.gpus > 1 and (not REGISTRY[self.algorithm].split or self.strategy is not None):
            raise OptionError("gpus", f"{self.gpus}: {self.label} does not split its neighborhoods over GPUs (only "
                              f"{', '.join(name for name, entry in REGISTRY.items() if entry.split)})")
        object.__setattr__(self, "backend", spec.device)
        if REGISTRY[self.algorithm].archive:
            object.__setattr__(self, "archive", spec.archive)

    def __getattr__(self, name: str):
        """An option of the algorithm (config.tenure); another algorithm's option reads as its default."""
        options = self.__dict__.get("options")
        if name.startswith("__") or options is None:
            raise AttributeError(name)
        if name in options.__dataclass_fields__:
            return getattr(options, name)
        try:
            return option_defaults()[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def label(self) -> str:
        """e.g. pls-nondominated, tabu or ils3opt."""
        return REGISTRY[self.algorithm].label(self.options)

    @property
    def spec(self) -> BackendSpec:
        """The backend spec of the run: `auto` is resolved once, where the configuration is made (the backend field
        then names the device), so this only spells the fields out."""
        return BackendSpec(self.backend, self.threads, self.archive, block=self.block, tune=self.tune,
                           generation=self.generation, selection=self.selection, memory=self.memory,
                           gpus=self.gpus).resolved()

    def record(self) -> dict:
        """Every option by name, those of algorithms other than this one's at their defaults (run.json's config:
        RunConfig(**record) makes this configuration again)."""
        common = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "options"}
        return common | {name: getattr(self, name) for name in option_defaults()}


def option_defaults() -> dict:
    """Every registered algorithm's options and their defaults, in the registry's order."""
    return dict(_defaults(tuple(entry.options for entry in REGISTRY.values())))


@functools.lru_cache(maxsize=4)
def _defaults(options: tuple[type, ...]) -> tuple[tuple[str, object], ...]:
    """option_defaults for these option classes: asked ~20 times per search's run.json, and REGISTRY may grow at run
    time (an extension adds an entry), so the classes are the key."""
    return tuple((f.name, f.default) for kind in options for f in dataclasses.fields(kind))


def refuse_foreign(given: dict, algorithm: str) -> None:
    """TypeError for a keyword no algorithm takes; OptionError naming every option of other algorithms given a
    value."""
    defaults = option_defaults()
    for name in given:
        if name not in defaults:
            raise TypeError(f"RunConfig got an unexpected keyword argument {name!r}")
    foreign = [name for name in defaults if name in given and given[name] != defaults[name]]
    if foreign:
        raise OptionError("algorithm", f"{algorithm} does not take " + ", ".join(
            f"{{{name}}} (only {' or '.join(takers(name))})" for name in foreign), *foreign)


def cli_arguments(config: RunConfig) -> list[str]:
    """The `mols run` arguments that make `config` again: its instance, then each option not at its default."""
    defaults = {f.name: f.default for f in dataclasses.fields(RunConfig)} | option_defaults()
    args = [config.instance]
    for name, value in config.record().items():
        if name in ("instance", "options") or value == defaults[name] or (name == "neighborhood" and config.strategy):
            continue
        if isinstance(value, tuple):
            value = ",".join(v if isinstance(v, str) else repr(v) for v in value)
        args += [flag(name)] if value is True else [flag(name), str(value)]
    return args


def archive_part(config: RunConfig) -> str | None:
    """The results folder's part of a PLS archive not where the backend keeps it by default."""
    if not REGISTRY[config.algorithm].archive or config.archive == config.backend:  # the backend's own place
        return None
    return f"{config.archive}archive"


def variant_part(value: str, default: str, key: str) -> str | None:
    """The results folder's part of a GPU evaluation variant (hostgen, copysel, sharedmem); none for the default."""
    return None if value == default else f"{value}{key}"


def default_strategy(config: RunConfig) -> str | None:
    """The ILS-3opt strategy that `config` (-p tsp -a ils without --strategy) runs where no option of the generic ILS
    (or of the GPU evaluator's launches) is given: DEFAULT_STRATEGY on the GPU, its Numba twin on the CPU (the generic
    ILS, from a random tour, held one 31 times as long as the optimum on pcb3038 after 3 s); else None, the generic
    ILS."""
    if config.problem != "tsp" or config.algorithm != "ils" or config.options.strategy is not None:
        return None
    generic = (config.evaluations, config.weights, config.strength, config.objectives, config.neighborhood,
               config.block, config.tune or None)
    if any(value is not None for value in generic):
        return None
    return DEFAULT_STRATEGY if BackendSpec(config.backend).resolved().device == "gpu" else CPU_DEFAULT_STRATEGY


def check_ils3opt(config: RunConfig) -> None:
    """OptionError unless `config` can run ILS-3opt (-p tsp -a ils --strategy S)."""
    if config.problem != "tsp":
        raise OptionError("strategy", "runs ILS-3opt: give it with {problem} tsp", "problem")
    given = [name for name, value in (("evaluations", config.evaluations), ("weights", config.weights),
                                      ("strength", config.strength), ("objectives", config.objectives),
                                      ("neighborhood", config.neighborhood)) if value not in (None, "3opt")]
    if given:
        raise OptionError("strategy", "runs ILS-3opt, which does not take " + ", ".join(f"{{{n}}}" for n in given),
                          *given)


__all__ = ["ALGORITHMS", "DEFAULT_ITERATIONS", "DEFAULT_PARTITIONS", "VARIANTS", "RunConfig", "cli_arguments"]
