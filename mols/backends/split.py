"""One neighborhood split over the GPUs of a machine (--gpus): each device evaluates a contiguous share of the ids
with the same kernels, from the state staged once on the host (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise

import numpy as np

from mols.backends.base import Companions, bounds_one_by_one
from mols.backends.cuda import device_name, import_cupy
from mols.backends.gpu import GpuEvaluator
from mols.backends.spec import BackendSpec
from mols.errors import OptionError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem


def visible_gpus() -> int:
    """The CUDA devices CuPy sees."""
    return import_cupy().cuda.runtime.getDeviceCount()


def split_refused(problem: Problem, spec: BackendSpec, n_neighbors: int) -> str | None:
    """Why the neighborhood cannot be split over spec.gpus devices (the text after --gpus N), or None."""
    visible = visible_gpus()
    if spec.gpus > visible:
        return f"asks for more GPUs than the {visible} that CUDA sees here"
    if not problem.kernels.chunkable:
        return f"splits a neighborhood's ids, which the {problem.name} problem's kernels do not take from an offset"
    if n_neighbors < spec.gpus:
        return f"splits {n_neighbors} neighbors: more GPUs than neighbors"
    if spec.generation != "device" or spec.block is not None or spec.tune:
        return "runs the default launch with moves decoded on the device: drop --generation host, --block and --tune"
    return None


def shares(n_neighbors: int, parts: int) -> list[range]:
    """`parts` contiguous shares of the ids 0 .. n_neighbors - 1, as even as can be, in order."""
    bounds = [n_neighbors * p // parts for p in range(parts + 1)]
    return [range(lo, hi) for lo, hi in pairwise(bounds)]


class SplitEvaluator(Companions):
    """The Evaluator of spec.gpus GpuEvaluators, device d evaluating share d of the ids (shares) with its own copy of
    the instance data, kernels, state and stream. The first holds the pinned host state and F that all share: a
    solution is staged once, and each device's graph copies it up and fills its rows of F. Its users launch on every
    device before they wait for any (each_part, then synchronize)."""

    def __init__(self, problem: Problem, nbh: Neighborhood, spec: BackendSpec):
        n_neighbors = nbh.n_neighbors(problem.n)
        refused = split_refused(problem, spec, n_neighbors)
        if refused:
            raise OptionError("gpus", f"{spec.gpus} {refused}")
        self.problem, self.nbh, self.spec, self.label = problem, nbh, spec, spec.label
        self.n_neighbors, self.lanes, self._companions = n_neighbors, 1, {}
        self.devices = list(range(spec.gpus))
        self.parts: list[GpuEvaluator] = []
        for device, ids in zip(self.devices, shares(n_neighbors, spec.gpus)):
            with import_cupy().cuda.Device(device):
                self.parts.append(GpuEvaluator(problem, nbh, spec, ids=ids, host=self.parts[0] if self.parts else None))
        self.chunk, self.what = self.parts[0].chunk, self.parts[0].what
        self.device = f"{spec.gpus} x " + " + ".join(sorted({device_name(d) for d in self.devices}))

    @contextmanager
    def on(self, d: int):
        """A context in which CuPy works on part d's device."""
        with import_cupy().cuda.Device(self.devices[d]):
            yield self.parts[d]

    def each_part(self) -> Iterator[tuple[int, GpuEvaluator]]:
        """(d, part d) in turn, each with its device current while the loop's body runs."""
        for d in range(len(self.parts)):
            with self.on(d) as part:
                yield d, part

    def owner(self, idx: int) -> int:
        """The part whose share holds neighbor id idx."""
        return next(d for d, part in enumerate(self.parts) if idx < part.ids.stop)

    def stage(self, x: np.ndarray, key: np.ndarray | None = None) -> None:
        """x's state in the pinned host buffer that every part uploads from."""
        with self.on(0) as part:
            part.stage(x, key)

    def synchronize(self) -> None:
        """Wait for every part's queued work."""
        for _, part in self.each_part():
            part.synchronize()

    def evaluate(self, x: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
        """F on the host (the parts' shared pinned array, which the next call overwrites): every device's graph
        launched, then all waited for."""
        graphs = [part.round_trip() for _, part in self.each_part()]
        self.stage(x, key)
        for d, part in self.each_part():
            part.replay(graphs[d])
        self.synchronize()
        return self.parts[0].host_F()

    def neighborhood_bounds(self, xs: list[np.ndarray], keys: list) -> tuple[np.ndarray, np.ndarray]:
        """Evaluator.neighborhood_bounds, one evaluation each."""
        return bounds_one_by_one(self, xs, keys)
