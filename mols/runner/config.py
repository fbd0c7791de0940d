"""What defines a run: `RunConfig`, validated once where it is made, and the algorithms' names and options."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mols.backends.spec import BackendSpec
from mols.errors import MolsError
from mols.problems import problem_entry

VARIANTS = ("dominating", "nondominated")  # PLS: which neighbors enter the archive (PLS-√, PLS-≠)
DEFAULT_ITERATIONS = 10_000  # neighborhood evaluations, as in the flowshop paper
DEFAULT_PARTITIONS = 3  # tabu: Das-Dennis lattice of weight vectors, 10 of them for 3 objectives

ALGORITHMS = ("pls", "tabu", "its", "hc", "ils")
# Options that only some algorithms take: option -> (RunConfig field, its default, those algorithms).
ALGORITHM_OPTIONS = {
    "--variant": ("variant", "nondominated", ("pls",)),
    "--archive": ("archive", None, ("pls",)),
    "--weights": ("weights", None, ("tabu", "its", "hc", "ils")),
    "--partitions": ("partitions", DEFAULT_PARTITIONS, ("tabu",)),
    "--tenure": ("tenure", None, ("tabu", "its")),
    "--strength": ("strength", None, ("its", "ils")),
    "--run-length": ("run_length", None, ("its",)),
    "--restarts": ("restarts", None, ("pls",)),
    "--strategy": ("strategy", None, ("ils",)),
    "--population": ("population", None, ("ils",)),
    "--merge": ("merge", 0, ("ils",)),
}


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; unknown keys are a TypeError, bad values a MolsError."""

    instance: str
    problem: str = "flowshop"
    algorithm: str = "pls"
    variant: str = "nondominated"  # pls only
    neighborhood: str | None = None  # None: the problem's usual one (insertion for the flowshop)
    backend: str = "auto"
    iterations: int | None = None  # neighborhood evaluations; None: 10,000, or no limit with time or evaluations
    seed: int = 0
    weights: tuple[float, ...] | None = None  # tabu, its, hc, ils; None: a lattice of vectors (tabu) or equal weights
    partitions: int = DEFAULT_PARTITIONS  # tabu only
    tenure: int | None = None  # tabu and its; None: the problem size n (its: n / 2)
    threads: int | None = None  # cpu backend only; None: all cores
    archive: str | None = None  # pls: where neighbors are filtered, cpu or gpu; None: gpu on the gpu backend
    strength: int | None = None  # its and ils: random changes per perturbation; None: max(2, n // 5)
    run_length: int | None = None  # its only: iterations per tabu run; None: 10 n
    target: float | tuple[float, ...] | None = None  # stop once the archive weakly dominates it (a value per
    # objective); None: the problem's (PPP: 0)
    time: float | None = None  # seconds of search at most
    evaluations: int | None = None  # neighbors evaluated at most (iterations x neighbors per evaluation)
    restarts: int | None = None  # pls only: restarts before the natural end; None: restart until a budget ends it
    objectives: tuple[str, ...] | None = None  # the problem's to optimise, in this order ("a,b" too); None: all
    strategy: str | None = None  # ils on the TSP: ILS-3opt run by this strategy (algorithms/ils3opt/search.py); None: plain ILS
    population: int | None = None  # ILS-3opt: solutions improved side by side (nbsol); None: 64
    merge: int = 0  # ILS-3opt: merged rounds in islands of this many solutions (algorithms/ils3opt/merge.py); 0: none
    block: int | None = None  # gpu backend: threads per block of its kernels; None: the default, or tuned
    tune: bool = False  # gpu backend, without block: the launch tuned once per device (backends/tuning.py)

    def __post_init__(self):
        if self.strategy is not None:
            check_ils3opt(self)
            object.__setattr__(self, "neighborhood", "3opt")
            object.__setattr__(self, "backend", "cpu" if self.strategy.startswith("cpu") else "gpu")
        elif self.algorithm == "ils" and (self.population is not None or self.merge):
            raise MolsError(f"{'--population' if self.population is not None else '--merge'} is ILS-3opt's (-p tsp "
                            "-a ils --strategy ...)")
        if self.objectives is not None:
            names = self.objectives.split(",") if isinstance(self.objectives, str) else self.objectives
            object.__setattr__(self, "objectives", tuple(name.strip() for name in names))
        if self.neighborhood is None:
            object.__setattr__(self, "neighborhood", problem_entry(self.problem).neighborhood)
        if self.algorithm not in ALGORITHMS:
            raise MolsError(f"--algorithm: unknown algorithm {self.algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
        if self.seed < 0:
            raise MolsError(f"--seed must be a non-negative integer, got {self.seed}")
        object.__setattr__(self, "iterations", default_iterations(self.iterations, self.time, self.evaluations))
        check_budget(self.iterations, self.time, self.evaluations)
        if self.weights is not None and self.partitions != DEFAULT_PARTITIONS:
            raise MolsError("--partitions makes a lattice of weight vectors; --weights gives one: give either")
        misplaced = [f"{option} (only -a {' or -a '.join(algorithms)})"
                     for option, (field, default, algorithms) in ALGORITHM_OPTIONS.items()
                     if getattr(self, field) != default and self.algorithm not in algorithms]
        if misplaced:
            raise MolsError(f"-a {self.algorithm} does not take {', '.join(misplaced)}")
        spec = self.spec  # the one place auto is resolved
        if spec.device == "cpu" and (self.block is not None or self.tune):
            raise MolsError("--block and --tune set the gpu backend's launches; this run is on the cpu")
        object.__setattr__(self, "backend", spec.device)
        if self.algorithm == "pls":
            object.__setattr__(self, "archive", spec.archive)

    @property
    def label(self) -> str:
        """e.g. pls-nondominated, tabu or ils3opt."""
        if self.strategy is not None:
            return "ils3opt"
        return f"pls-{self.variant}" if self.algorithm == "pls" else self.algorithm

    @property
    def spec(self) -> BackendSpec:
        """The backend spec of the run (resolved: cpu or gpu)."""
        return BackendSpec(self.backend, self.threads, self.archive, block=self.block, tune=self.tune).resolved()


def check_ils3opt(config: RunConfig) -> None:
    """MolsError unless `config` can run ILS-3opt (-p tsp -a ils --strategy S)."""
    from mols.algorithms.ils3opt.search import STRATEGIES

    if config.strategy not in STRATEGIES:
        raise MolsError(f"--strategy: unknown strategy {config.strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if config.problem != "tsp" or config.algorithm != "ils":
        raise MolsError("--strategy runs ILS-3opt: give it with -p tsp -a ils")
    if config.population is not None and config.population < 1:
        raise MolsError(f"--population must be at least 1, got {config.population}")
    given = [option for option, value in (("--evaluations", config.evaluations), ("--weights", config.weights),
                                          ("--strength", config.strength), ("--objectives", config.objectives),
                                          ("--neighborhood", config.neighborhood)) if value is not None]
    if given:
        raise MolsError(f"ILS-3opt (--strategy) does not take {', '.join(given)}")


def default_iterations(iterations: int | None, time: float | None, evaluations: int | None) -> int | None:
    """The iterations budget: as given; else none where time or evaluations is given; else the default."""
    if iterations is not None or time is not None or evaluations is not None:
        return iterations
    return DEFAULT_ITERATIONS


def check_budget(iterations: int | None, time: float | None, evaluations: int | None) -> None:
    """MolsError naming the option of a value out of range."""
    if iterations is not None and iterations < 1:
        raise MolsError(f"--iterations must be at least 1, got {iterations}")
    if time is not None and not (math.isfinite(time) and time > 0):
        raise MolsError(f"--time must be a positive number of seconds, got {time}")
    if evaluations is not None and evaluations < 1:
        raise MolsError(f"--evaluations must be at least 1, got {evaluations}")
