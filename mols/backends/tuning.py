"""The GPU launch configuration, chosen once per (device, problem, neighborhood, size) and remembered on disk.

In the spirit of Algorithm 3 of Luong, Melab & Talbi (IEEE TC 2013): the first time a configuration is
needed, when the evaluator is made (before the search's first iteration, on a solution of its own), a
tuning pass times the problem's kernels (CUDA events over TRIALS launches after one warm-up) under
candidate launches, which share the default evaluator's buffers (GpuEvaluator.with_launch): first the
threads per move where the problem lets them vary (Problem.lanes: QAP, Weierstrass; half, as many and twice
as many as the problem's own choice); then the threads per block, powers of two times the warp size, of the
evaluation kernel (timed alone) and of the selection kernels (timed alone), keeping the fastest of each;
last the selection's grid, where the neighborhood needs more blocks than some of GRIDS. A candidate whose
compilation or launch fails (too many threads or registers, too much shared memory, out of memory) is
skipped, as Algorithm 3's fault tolerance skips it. The evaluation is exact whatever the launch, so the
choice changes the time only, never a result.

The choice is stored in TuningCache's JSON file (one per mols version, under $MOLS_CACHE_DIR, else
$XDG_CACHE_HOME/mols or ~/.cache/mols), so later runs start tuned. A broken file or one of another
version is ignored with a warning and rewritten. A launch given by the spec (--block) or read from the
file that fails falls back, with a warning, to the next of the ranking: the default launch at last.
Tuning is asked for (--tune, BackendSpec.tune): on the H200 it is not yet better than the kernels' default launch
everywhere (reports/gpu-techniques/NOTES.md). MOLS_TUNE=0 in the environment turns it off for every run.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

import mols
from mols.backends.cuda import gpu_name, import_cupy
from mols.backends.gpu import DEFAULT_LAUNCH, GpuEvaluator, Launch, launch_failures
from mols.backends.gpu_select import needed_parts
from mols.backends.spec import MAX_BLOCK, WARP, BackendSpec
from mols.errors import BackendError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

BLOCKS = tuple(WARP << p for p in range((MAX_BLOCK // WARP).bit_length()))  # 32, 64, ..., 1024
GRIDS = (128, 512, 2048, 8192)  # selection grids tried beside the default (1024 blocks) where they cap the grid
TRIALS = 5  # timed launches per candidate, after one warm-up


def cache_path() -> Path:
    """The tuning file of this mols version (module docstring)."""
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
    powers = (launch.sel_block, launch.lanes or 1)  # select.cu's reduction, qap.cu's shuffles need powers of two
    if not all(isinstance(b, int) and 0 < b <= MAX_BLOCK and b % WARP == 0 for b in blocks) or \
            not all(isinstance(p, int) and p > 0 and p & (p - 1) == 0 for p in powers) or (launch.lanes or 1) > WARP \
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


def gpu_evaluator(problem: Problem, nbh: Neighborhood, spec: BackendSpec) -> GpuEvaluator:
    """The evaluator under the spec's launch: --block's, else the tuned one (from the file, or tuned now and
    written there) where the spec asks (--tune; not with MOLS_TUNE=0), else the default one; a launch that fails gives way
    to the next."""
    if spec.block is not None:
        return first_working(problem, nbh, spec, [fixed_launch(spec.block), DEFAULT_LAUNCH])
    if not spec.tune or os.environ.get("MOLS_TUNE") == "0":
        return GpuEvaluator(problem, nbh, spec)
    cache = TuningCache.load()
    key = tuning_key(gpu_name(), problem, nbh, spec)
    if key not in cache.launches:
        cache.launches[key] = Tuner(problem, nbh, spec).best()
        cache.save()
    return first_working(problem, nbh, spec, [cache.launches[key], DEFAULT_LAUNCH])


def first_working(problem: Problem, nbh: Neighborhood, spec: BackendSpec, ranked: list[Launch]) -> GpuEvaluator:
    """The evaluator of the first launch of `ranked` whose kernels run (probe), warning about those that fail;
    the default launch is taken as it is (the kernels' own, which every GPU runs)."""
    for launch, following in zip(ranked, [*ranked[1:], None]):
        if launch == DEFAULT_LAUNCH:
            return GpuEvaluator(problem, nbh, spec)
        try:
            ev = GpuEvaluator(problem, nbh, spec, launch)
            probe(ev)
            return ev
        except launch_failures() as err:
            failed = f"the GPU launch {launch.text} fails for {problem.name} {nbh.name} ({err})"
            if following is None:
                raise BackendError(failed) from None
            warnings.warn(f"{failed}; using {following.text} instead", stacklevel=2)
    raise BackendError("no GPU launch to try")


def probe_solution(problem: Problem, nbh: Neighborhood):
    """A solution to time and probe kernels with (a fixed draw: tuning leaves the search's generator alone)."""
    key = np.zeros(2, dtype=np.uint64) if nbh.sampled else None
    return problem.random_solution(np.random.default_rng(0)), key


def probe(ev: GpuEvaluator) -> None:
    """One launch of each kernel the launch changes (raises where one fails): the evaluation kernel, and the
    selection's where its block or the threads per move differ from the default (no selection is made
    otherwise: a run that only evaluates, such as Pareto local search, needs none)."""
    Timing(ev).evaluation(trials=0)
    changed = (ev.launch.sel_block, ev.launch.lanes) != (DEFAULT_LAUNCH.sel_block, DEFAULT_LAUNCH.lanes)
    if changed and ev.spec.selection == "device":
        Timing(ev).selection(trials=0)


class Timing:
    """Seconds per launch of an evaluator's kernels on the probe solution, from CUDA events."""

    def __init__(self, ev: GpuEvaluator):
        self.ev = ev
        self.x, self.key = probe_solution(ev.problem, ev.nbh)

    def evaluation(self, trials: int = TRIALS) -> float:
        """The evaluation kernel (its first chunk) on the state uploaded once."""
        ev = self.ev
        ev.stage(self.x, self.key)
        ev.enqueue_upload()
        return stream_seconds(ev.stream, lambda: ev.enqueue_launch(0), trials)

    def selection(self, trials: int = TRIALS) -> float:
        """The selection's kernels (the fused one where the problem has it), from the state on the device."""
        ev = self.ev
        ev.selection(self.x, np.ones(ev.problem.n_obj), 0, -np.inf, self.key)
        return stream_seconds(ev.stream, lambda: ev.selection.enqueue(), trials)


def stream_seconds(stream, enqueue, trials: int = TRIALS) -> float:
    """Device seconds per call of what enqueue() puts on the stream: CUDA events around `trials` calls, after
    one warm-up call (which raises where a launch fails); 0.0 for no trials."""
    cupy = import_cupy()
    enqueue()
    stream.synchronize()
    if trials == 0:
        return 0.0
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    start.record(stream)
    for _ in range(trials):
        enqueue()
    end.record(stream)
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end) / 1e3 / trials


class Tuner:
    """The tuning pass (module docstring). `times` keeps each candidate's seconds per launch (None: it failed)."""

    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec, blocks: tuple[int, ...] = BLOCKS):
        self.problem, self.nbh, self.spec, self.blocks = problem, nbh, spec, blocks
        self.times: dict[Launch, tuple[float, float] | None] = {}  # launch -> (evaluation, selection) seconds
        self._base = None  # the evaluator of the default launch, whose buffers the candidates share

    def best(self) -> Launch:
        self._base = GpuEvaluator(self.problem, self.nbh, self.spec)
        lanes = self._best_lanes()
        for block in self.blocks:
            self._time(Launch(block=block, sel_block=block, lanes=lanes))
        working = [(launch, t) for launch, t in self.times.items() if t is not None and launch.lanes == lanes]
        if not working:
            return DEFAULT_LAUNCH
        block = min(working, key=lambda w: w[1][0])[0].block
        if not self._selects:
            return Launch(block=block, lanes=lanes)
        sel_block = min(working, key=lambda w: w[1][1])[0].sel_block
        return self._best_grid(Launch(block=block, sel_block=sel_block, lanes=lanes))

    def _best_grid(self, launch: Launch) -> Launch:
        """The launch with the selection's fastest grid: its own (the default) or one of GRIDS below the blocks
        the neighborhood needs."""
        if launch not in self.times:
            self._time(launch)
        if self.times[launch] is None:
            return launch  # first_working gives way to the default launch
        needed = needed_parts(self._base.with_launch(launch), 0, launch.sel_block)  # compiled already: no failure
        options = [launch, *(replace(launch, grid=grid) for grid in GRIDS if grid < needed and grid != launch.grid)]
        for option in options[1:]:
            self._time(option)
        working = [option for option in options if self.times[option] is not None]
        return min(working, key=lambda option: self.times[option][1])

    @property
    def _selects(self) -> bool:
        return self.spec.selection == "device"

    def _best_lanes(self) -> int | None:
        """The fastest threads per move at the default blocks, where the problem lets them vary (else None): half,
        as many and twice as many as the problem's own choice, powers of two up to a warp and n."""
        if not hasattr(self.problem, "lanes") or self.problem.lanes is not None:
            return None
        own = self.problem.threads_per_move
        options = sorted({lanes for lanes in (own // 2, own, own * 2) if 1 <= lanes <= min(WARP, self.problem.n)})
        timed = {lanes: self._time(replace(DEFAULT_LAUNCH, lanes=lanes)) for lanes in options}
        working = {lanes: sum(t) for lanes, t in timed.items() if t is not None}
        return min(working, key=working.get) if working else None

    def _time(self, launch: Launch) -> tuple[float, float] | None:
        """(evaluation, selection) seconds per launch, or None where the launch fails."""
        try:
            timing = Timing(self._base.with_launch(launch))
            self.times[launch] = (timing.evaluation(), timing.selection() if self._selects else 0.0)
        except launch_failures():
            self.times[launch] = None
        return self.times[launch]
