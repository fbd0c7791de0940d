"""The GPU launch configuration, tuned in the search's first iterations by Algorithm 3 of Luong, Melab & Talbi (IEEE TC
2013) once per (device, problem, neighborhood, size) and remembered on disk (docs/internals.md)."""

from __future__ import annotations

import json
import os
import statistics
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

import mols
from mols.backends.cuda import gpu_name, import_cupy
from mols.backends.gpu import GpuEvaluator
from mols.backends.launch import DEFAULT_LAUNCH, Launch, launch_failures
from mols.backends.spec import MAX_BLOCK, WARP, BackendSpec
from mols.errors import BackendError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

# An iteration to probe a launch with: iteration(ev, x, key) gives a callable that runs one on x and returns the CUDA
# graph it replays; the algorithm's (tabu search's: algorithms/tabu/selection.py's tuned_iteration), else evaluation.
Iteration = Callable[[GpuEvaluator, np.ndarray, object], Callable[[], object]]


def cache_path() -> Path:
    """The tuning file of this mols version (docs/internals.md)."""
    root = os.environ.get("MOLS_CACHE_DIR")
    if root is None:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        root = Path(base) / "mols"
    return Path(root) / f"tuning-{mols.__version__}.json"


@dataclass
class TuningCache:
    """{key: Launch} as read from `path`; `save` writes it back whole."""

    path: Path = field(default_factory=cache_path)
    launches: dict[str, Launch] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> TuningCache:
        """The launches of the file; none (and a warning) where it is broken or of another version."""
        cache = cls() if path is None else cls(path)
        if not cache.path.exists():
            return cache
        try:
            data = json.loads(cache.path.read_text())
            if data.get("mols") != mols.__version__:
                raise ValueError(f"written by mols {data.get('mols')}, not {mols.__version__}")
            cache.launches = {key: launch_of(value) for key, value in data["launches"].items()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as err:
            warnings.warn(f"ignoring the GPU tuning cache {cache.path} ({err}); it will be rewritten", stacklevel=2)
        return cache

    def save(self) -> None:
        """The file rewritten whole (through a temporary file: a run stopped meanwhile leaves the old one); a
        warning where it cannot be written (the run goes on, tuned; the next one tunes again)."""
        data = {"mols": mols.__version__, "launches": {key: asdict(v) for key, v in sorted(self.launches.items())}}
        temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(data, indent=1) + "\n")
            temporary.replace(self.path)
        except OSError as err:
            warnings.warn(f"cannot write the GPU tuning cache {self.path} ({err.strerror})", stacklevel=2)


def launch_of(value: dict) -> Launch:
    """A Launch from the file's entry; ValueError where it is not a valid one."""
    launch = Launch(**value)
    blocks = (launch.block, launch.sel_block)
    powers = (launch.sel_block, launch.move_threads or 1)  # select.cu's reduction, qap.cu's shuffles need powers of two
    if not all(isinstance(b, int) and 0 < b <= MAX_BLOCK and b % WARP == 0 for b in blocks) or \
            not all(isinstance(p, int) and p > 0 and p & (p - 1) == 0 for p in powers) or (launch.move_threads or 1) > WARP \
            or not (isinstance(launch.grid, int) and launch.grid > 0):
        raise ValueError(f"not a launch: {value}")
    return launch


def tuning_key(device: str, problem: Problem, nbh: Neighborhood, spec: BackendSpec) -> str:
    """What a launch is remembered for: the device, the problem and its size, the neighborhood, the variants."""
    return (f"{device}|{problem.name}|{nbh.name}|n={problem.n}|k={problem.n_obj}|{np.dtype(problem.dtype).name}"
            f"|{spec.generation}|{spec.selection}|{spec.memory}|{'fused' if spec.fused else 'unfused'}")


def fixed_launch(block: int) -> Launch:
    """The launch of --block: that many threads per block in every kernel (the selection's, a power of two for
    its reduction: the largest not above it)."""
    return Launch(block=block, sel_block=1 << (block.bit_length() - 1))


def evaluation(ev: GpuEvaluator, x, key) -> Callable[[], object]:
    """An Iteration that is an evaluation brought back to the host (evaluate)."""
    def iteration():
        ev.evaluate(x, key)
        return ev.evaluation_graph

    return iteration


def gpu_evaluator(problem: Problem, nbh: Neighborhood, spec: BackendSpec, cache: TuningCache | None = None,
                  iteration: Iteration = evaluation) -> GpuEvaluator:
    """The evaluator under the spec's launch: --block's; else, where the spec asks (--tune; not with MOLS_TUNE=0), the
    cache's (by default the file's) or, where it has none, the default one with a LaunchTuner (ev.tuner) that the
    search's first iterations run; else the default one. A launch that fails gives way to the next."""
    if spec.block is not None:
        return first_working(problem, nbh, spec, [fixed_launch(spec.block), DEFAULT_LAUNCH], iteration)
    if not spec.tune or os.environ.get("MOLS_TUNE") == "0":
        return GpuEvaluator(problem, nbh, spec)
    cache = TuningCache.load() if cache is None else cache
    key = tuning_key(gpu_name(), problem, nbh, spec)
    if key in cache.launches:
        return first_working(problem, nbh, spec, [cache.launches[key], DEFAULT_LAUNCH], iteration)
    ev = GpuEvaluator(problem, nbh, spec)
    grid = [grid_launch(*point) for point in paper_grid(problem.n, ev.n_neighbors)]
    ev.tuner = LaunchTuner(ev, [DEFAULT_LAUNCH, *grid], cache, key)
    return ev


def first_working(problem: Problem, nbh: Neighborhood, spec: BackendSpec, ranked: list[Launch],
                  iteration: Iteration = evaluation) -> GpuEvaluator:
    """The evaluator of the first launch of `ranked` whose kernels run (probe), warning about those that fail;
    the default launch is taken as it is (the kernels' own, which every GPU runs)."""
    for launch, following in zip(ranked, [*ranked[1:], None]):
        if launch == DEFAULT_LAUNCH:
            return GpuEvaluator(problem, nbh, spec)
        try:
            ev = GpuEvaluator(problem, nbh, spec, launch)
            probe(ev, iteration)
            return ev
        except launch_failures() as err:
            failed = f"the GPU launch {launch.text} fails for {problem.name} {nbh.name} ({err})"
            if following is None:
                raise BackendError(failed) from None
            warnings.warn(f"{failed}; using {following.text} instead", stacklevel=2)
    raise BackendError("no GPU launch to try")


def probe_solution(problem: Problem, nbh: Neighborhood):
    """A solution to time and probe kernels with, and the draw's key of a sampled neighborhood (a fixed draw:
    tuning leaves the search's generator alone)."""
    key = np.zeros(2, dtype=np.uint64) if nbh.sampled else None
    return problem.random_solution(np.random.default_rng(0)), key


def probe(ev: GpuEvaluator, iteration: Iteration = evaluation) -> None:
    """One iteration under the evaluator's launch (raises where a kernel of it fails)."""
    iteration(ev, *probe_solution(ev.problem, ev.nbh))()


TRIALS = 3  # Algorithm 3's nb_trials: timed iterations per launch
# How much faster than the first launch (the kernels' own) another must be to replace it: less is within the noise.
# The kernels' own launch is a candidate beside the paper's grid, whose selection grids (at most the neighborhood's
# size in threads) made QAP's iterations twice as slow on the H200 (reports/gpu-techniques/).
MARGIN = 0.03
PAPER_BLOCKS = tuple(range(WARP, 513, WARP))  # Algorithm 3's threads per block: 32, 64, 96, ..., 512


def nearest_power_of_two(n: int) -> int:
    """The power of two nearest n (the larger of two as near)."""
    above = 1 << max(0, n - 1).bit_length()
    return above if above - n <= n - above // 2 else above // 2


def paper_grid(n: int, n_neighbors: int) -> list[tuple[int, int]]:
    """Algorithm 3's (total threads, threads per block) in its order: the totals from the power of two nearest the
    solution's size n, doubled while they do not pass the neighborhood's size (that first total alone where the
    neighborhood is smaller), each with the blocks of PAPER_BLOCKS."""
    totals = [nearest_power_of_two(n)]
    while totals[-1] * 2 <= n_neighbors:
        totals.append(totals[-1] * 2)
    return [(total, block) for total in totals for block in PAPER_BLOCKS]


def grid_launch(total: int, block: int) -> Launch:
    """The launch of a grid point: `block` threads per block in the evaluation kernels (the selection's: fixed_launch's
    power of two) and the selection's blocks, which stride over the moves, `total` threads in all (one block at
    least); threads per move stay the problem's own, so that every launch gives the same bits."""
    launch = fixed_launch(block)
    return replace(launch, grid=max(1, total // launch.sel_block))


class LaunchTuner:
    """Algorithm 3 in the search's first iterations (docs/internals.md): the launches (the kernels' own, then the
    paper's grid) in turn, one an iteration, TRIALS rounds (each launch once a round, so that the GPU's drift falls on
    all alike), the best by its lowest device time (best); a launch that fails ends the grid there (the launches
    before it go on to their trials). Once done it remembers the best (the default launch where none ran) in the
    cache and moves its evaluator to it (GpuEvaluator.relaunch). The search's iterations run it
    (algorithms/tabu/tuned.py)."""

    def __init__(self, ev: GpuEvaluator, launches: list[Launch], cache: TuningCache, key: str, trials: int = TRIALS):
        # Grid points can make one launch (a selection grid rounds to one block): each is timed once
        self.ev, self.launches, self.cache, self.key, self.trials = ev, list(dict.fromkeys(launches)), cache, key, trials
        self.times: dict[Launch, list[float]] = {launch: [] for launch in self.launches}
        self.failed: Launch | None = None  # the launch that ended the grid
        self.iterations = 0  # timed so far
        self.done = not self.launches
        self._index, self._round = 0, 0
        self._events = None

    @property
    def current(self) -> Launch:
        """The launch of the next iteration."""
        return self.launches[self._index]

    @property
    def left(self) -> int:
        """Iterations left to time."""
        return 0 if self.done else (self.trials - self._round) * len(self.launches) - self._index

    def time(self, enqueue: Callable[[], None]) -> float:
        """Device seconds of what enqueue() queues on the evaluator's queue (CUDA events around it; waits)."""
        if self._events is None:
            cupy = import_cupy()
            self._events = cupy.cuda.Event(), cupy.cuda.Event()
        start, end = self._events
        self.ev.record(start)
        enqueue()
        self.ev.record(end)
        end.synchronize()
        return import_cupy().cuda.get_elapsed_time(start, end) / 1e3

    def record(self, seconds: float) -> None:
        """The current launch's iteration took `seconds`; on to the next launch."""
        self.times[self.current].append(seconds)
        self.iterations += 1
        self._advance(self._index + 1)

    def fail(self) -> None:
        """The current launch failed to compile or launch: the grid ends before it (Algorithm 3's fault tolerance)."""
        self.failed = self.current
        for launch in self.launches[self._index:]:
            del self.times[launch]
        del self.launches[self._index:]
        self._advance(self._index)

    def best(self) -> Launch:
        """The launch of the lowest time among those timed TRIALS times (the lowest of each launch's, because noise
        only adds: the host's gap before a step's graph starts, a first launch loading its kernels), the first launch
        unless that one is faster by more than MARGIN; the default where none was timed."""
        timed = [launch for launch in self.launches if len(self.times[launch]) == self.trials]
        if not timed:
            return DEFAULT_LAUNCH
        lowest = {launch: min(self.times[launch]) for launch in timed}
        fastest, first = min(timed, key=lowest.get), self.launches[0]
        return first if first in lowest and lowest[fastest] > (1 - MARGIN) * lowest[first] else fastest

    def _advance(self, index: int) -> None:
        if index >= len(self.launches):
            index, self._round = 0, self._round + 1
        self._index = index
        if not self.launches or self._round == self.trials:
            self._finish()

    def _finish(self) -> None:
        """The best remembered, and the evaluator moved to it: later iterations run it."""
        self.done, best = True, self.best()
        self.cache.launches[self.key] = best
        self.cache.save()
        self.ev.tuner = None
        if best != self.ev.launch:
            self.ev.relaunch(best)


def device_times(evaluators: dict, x, key, rounds: int, replays: int,
                 iteration: Iteration = evaluation) -> dict:
    """{name: device seconds of an iteration on x} for {name: evaluator}: one iteration each (which makes its graph;
    None where the evaluator is None or its launch fails), then `rounds` rounds in which each graph in turn is
    replayed `replays` times between CUDA events; the median over rounds. Device time, because host-timed
    iterations of one launch vary by more than launches differ, and the host's part is the same for every launch.
    Rounds spread the GPU's drift over all alike; Table 7's launches (bench/gpu_techniques.py) also share one
    evaluator's buffers (with_launch), as the tuner's do, because two evaluators of one launch can differ in device
    time (reports/gpu-techniques/)."""
    cupy, graphs = import_cupy(), {}
    for name, ev in evaluators.items():
        try:
            if ev is not None:
                graphs[name] = ev, iteration(ev, x, key)()
        except launch_failures():
            pass
    seconds = {name: [] for name in graphs}
    for _ in range(rounds):
        for name, (ev, graph) in graphs.items():
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            ev.record(start)
            for _ in range(replays):
                ev.replay(graph)
            ev.record(end)
            end.synchronize()
            seconds[name].append(cupy.cuda.get_elapsed_time(start, end) / 1e3 / replays)
    return {name: statistics.median(seconds[name]) if name in seconds else None for name in evaluators}
