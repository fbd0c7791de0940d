"""The GPU launch configuration, chosen once per (device, problem, neighborhood, size) by a tuning pass that times
whole iterations under candidate launches (after Algorithm 3 of Luong, Melab & Talbi, IEEE TC 2013), and
remembered on disk (docs/internals.md)."""

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

BLOCKS = tuple(WARP << p for p in range((MAX_BLOCK // WARP).bit_length()))  # 32, 64, ..., 1024
TUNED_BLOCKS = (64, 256)  # the tuning pass's: half and twice the default's (32, 512 and 1024 were the slowest or
# tied; fixed 128 differs from the default in the selection's block only, and tied: reports/gpu-techniques/)
ROUNDS = 3  # rounds of device_times: each candidate's graph replayed in turn
REPLAYS = 3  # replays per candidate and round
MARGIN = 0.03  # how much faster than the default a launch must be to replace it: less is within the noise
# The iteration the pass times: iteration(ev, x, key) gives a callable that runs one on x and returns the CUDA
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
    """The evaluator under the spec's launch: --block's, else the tuned one (from the cache, by default the file,
    or tuned now and written there, timing `iteration`) where the spec asks (--tune; not with MOLS_TUNE=0), else
    the default one; a launch that fails gives way to the next."""
    if spec.block is not None:
        return first_working(problem, nbh, spec, [fixed_launch(spec.block), DEFAULT_LAUNCH], iteration)
    if not spec.tune or os.environ.get("MOLS_TUNE") == "0":
        return GpuEvaluator(problem, nbh, spec)
    cache = TuningCache.load() if cache is None else cache
    key = tuning_key(gpu_name(), problem, nbh, spec)
    if key not in cache.launches:
        tuner = Tuner(problem, nbh, spec, iteration=iteration)
        cache.launches[key] = tuner.best()
        cache.save()
        if (ev := tuner.evaluator(cache.launches[key])) is not None:
            return ev
    return first_working(problem, nbh, spec, [cache.launches[key], DEFAULT_LAUNCH], iteration)


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


class Tuner:
    """The tuning pass (docs/internals.md). `times` keeps each candidate's seconds per iteration (None: it failed)."""

    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec, blocks: tuple[int, ...] = TUNED_BLOCKS,
                 iteration: Iteration = evaluation):
        self.problem, self.nbh, self.spec, self.blocks, self.iteration = problem, nbh, spec, blocks, iteration
        self.times: dict[Launch, float | None] = {}
        self._base = None  # the evaluator of the default launch, whose buffers the candidates share
        self._evaluators: dict[Launch, GpuEvaluator | None] = {}

    def best(self) -> Launch:
        """The fastest of the default launch (at the problem's own threads per move and, where they may vary, at
        twice as many) and the fixed blocks (at its own)."""
        self._base = GpuEvaluator(self.problem, self.nbh, self.spec)
        self._x, self._key = probe_solution(self.problem, self.nbh)
        own, more = self._move_threads()
        launches = [replace(DEFAULT_LAUNCH, move_threads=own),
                    *([replace(DEFAULT_LAUNCH, move_threads=more)] if more else []),
                    *(replace(fixed_launch(b), move_threads=own) for b in self.blocks)]
        return self._fastest(launches) or DEFAULT_LAUNCH

    def evaluator(self, launch: Launch) -> GpuEvaluator | None:
        """The pass's evaluator of a launch it timed (None where it did not, or the launch failed): the run takes
        it rather than make its own."""
        return self._evaluators.get(launch) if self.times.get(launch) is not None else None

    def _move_threads(self) -> tuple[int | None, int | None]:
        """The problem's own threads per move and twice as many, where it lets them vary (KernelSet.varies_move_threads: QAP,
        Weierstrass) and twice as many fit a warp and n (half as many was never faster than as many); else
        None."""
        kernels = self.problem.kernels
        if not kernels.varies_move_threads or kernels.tuned_move_threads is not None:
            return None, None
        own = self.problem.kernels.threads_per_move
        return own, own * 2 if own * 2 <= min(WARP, self.problem.n) else None

    def _fastest(self, launches: list[Launch]) -> Launch | None:
        """The launch of the fastest iterations (device_times, all of `launches` together), the first (the default)
        unless another is faster by more than MARGIN; None where none runs."""
        self.times |= device_times({launch: self._evaluator(launch) for launch in launches}, self._x, self._key,
                                   iteration=self.iteration)
        working = {launch: self.times[launch] for launch in launches if self.times[launch] is not None}
        if not working:
            return None
        first, fastest = launches[0], min(working, key=working.get)
        if first in working and working[fastest] > (1 - MARGIN) * working[first]:
            return first  # the default stays unless another launch is clearly faster
        return fastest

    def _evaluator(self, launch: Launch) -> GpuEvaluator | None:
        """The launch's evaluator, sharing the default evaluator's buffers, made once per pass; None where its
        kernels fail to compile."""
        if launch not in self._evaluators:
            try:
                self._evaluators[launch] = self._base if launch == DEFAULT_LAUNCH else self._base.with_launch(launch)
            except launch_failures():
                self._evaluators[launch] = None
        return self._evaluators[launch]


def device_times(evaluators: dict, x, key, rounds: int = ROUNDS, replays: int = REPLAYS,
                 iteration: Iteration = evaluation) -> dict:
    """{name: device seconds of an iteration on x} for {name: evaluator}: one iteration each (which makes its graph;
    None where the evaluator is None or its launch fails), then `rounds` rounds in which each graph in turn is
    replayed `replays` times between CUDA events; the median over rounds. Device time, because host-timed
    iterations of one launch vary by more than launches differ, and the host's part is the same for every launch.
    Rounds spread the GPU's drift over all alike; the tuning pass's candidates also share one evaluator's buffers
    (with_launch), because two evaluators of one launch can differ in device time (reports/gpu-techniques/)."""
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
