"""The GPU's launch configuration (threads per block, per move, the selection's grid) and the problem's CUDA source
compiled for it, with the study variants' #defines."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from mols.backends.base import state_layout
from mols.backends.cuda import import_cupy, kernel_source, packed_nbytes
from mols.backends.spec import MEMORIES, BackendSpec
from mols.errors import MolsError
from mols.neighborhoods import Neighborhood
from mols.problems.base import Problem

LANE_CUH = Path(__file__).with_name("lane.cuh")
TECHNIQUES_CUH = Path(__file__).with_name("techniques.cuh")
BLOCK = 128  # threads per block
# The neighborhoods whose Move is NBH_ARITY ints, which the host can make (techniques.cuh)
HOST_MOVES = ("swap", "insertion", "3exchange", "hamming1", "hamming2", "hamming3")
MAX_LANES = 65535  # searches sharing a launch at most: grid.y is the search


@dataclass(frozen=True)
class Launch:
    """Threads per block of the evaluation kernels (a multiple of the warp) and of the selection's (a power of
    two), threads per move where the problem lets them vary (KernelSet.tuned_move_threads; None: the problem's own),
    and the selection's blocks per chunk at most (the grid: each block strides over the rest)."""

    block: int = BLOCK
    sel_block: int = 256  # gpu_select.py's SEL_BLOCK
    move_threads: int | None = None
    grid: int = 1024

    @property
    def text(self) -> str:
        return f"block {self.block}, selection block {self.sel_block}" + (
            f", {self.move_threads} threads per move" if self.move_threads else "") + (
            f", selection grid {self.grid} at most" if self.grid != DEFAULT_GRID else "")


DEFAULT_GRID = Launch.grid


DEFAULT_LAUNCH = Launch()


def launch_failures() -> tuple[type[Exception], ...]:
    """What CuPy raises where a launch cannot run: compilation, launch (threads, registers, shared memory), memory."""
    cupy = import_cupy()
    return (cupy.cuda.driver.CUDADriverError, cupy.cuda.runtime.CUDARuntimeError, cupy.cuda.compiler.CompileException,
            cupy.cuda.memory.OutOfMemoryError)


def problem_defines(problem: Problem, nbh: Neighborhood, block: int = BLOCK) -> dict[str, int | str]:
    """The #defines the problem's kernels for `nbh` compile with."""
    return {**problem.kernels.cuda_defines(), "BLOCK": block, "STATE_BYTES": packed_nbytes(state_layout(problem, nbh))}


def variant_defines(problem: Problem, nbh: Neighborhood, spec: BackendSpec) -> dict[str, int]:
    """The #defines of the spec's generation and memory variants (techniques.cuh); none for the defaults.
    MolsError naming the option where the problem or neighborhood has no such variant."""
    defines = {}
    if spec.generation == "host":
        if nbh.name not in HOST_MOVES:
            raise MolsError(f"--generation host: the {nbh.name} neighborhood's moves are made on the device only; "
                            f"host generation takes {', '.join(HOST_MOVES)}")
        defines["HOST_MOVES"] = 1
    if spec.memory != "default":
        refused = spec.memory == "shared" and problem.kernels.shared_memory_refused(nbh)
        if refused:
            raise MolsError(f"--memory shared: {refused}; choose {', '.join(m for m in MEMORIES if m != 'shared')}")
        defines["MEMORY"] = MEMORIES.index(spec.memory) - 1  # plain 0, readonly 1, shared 2
    return defines


def problem_source(defines: dict[str, int | str], problem: Problem, nbh: Neighborhood, *between: str) -> str:
    """The problem's CUDA source for `nbh`, after lane.cuh, the neighborhood's header, techniques.cuh where
    `defines` ask for a variant, and the sources `between`."""
    variants = TECHNIQUES_CUH.read_text() if "HOST_MOVES" in defines or "MEMORY" in defines else ""
    return kernel_source(defines, LANE_CUH.read_text(), nbh.cuda_source(), *([variants] if variants else []),
                         *between, problem.kernels.cuda_source(nbh))


def with_move_threads(problem: Problem, threads: int | None) -> Problem:
    """The problem with `threads` threads per move (a shallow copy), or itself where threads is None."""
    if threads is None or threads == problem.kernels.threads_per_move:
        return problem
    tuned = copy.copy(problem)
    tuned.kernels.tuned_move_threads = threads
    return tuned


def lanes_refused(problem: Problem, what: str, chunked: bool, lanes: int) -> str | None:
    """Why `lanes` searches cannot share the launches over `what` (docs/internals.md), or None."""
    if lanes > MAX_LANES:
        return f"{lanes} searches cannot share a launch: at most {MAX_LANES} (a CUDA grid's y size)"
    if not problem.kernels.lane_kernels:
        return f"the {problem.name} problem's kernels serve one search at a time (KernelSet.lane_kernels)"
    if chunked:
        return f"{what} is evaluated in chunks: searches share a launch only where each neighborhood is evaluated whole"
    return None
