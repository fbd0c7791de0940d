"""What a backend needs of a problem, apart from the model: its kernel set (the data and state the kernels read,
its Numba kernels, its CUDA source, and the device capabilities it declares)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from mols.errors import MolsError
from mols.neighborhoods import Neighborhood

if TYPE_CHECKING:
    from mols.problems.base import Problem

Layout = list[tuple[tuple[int, ...], np.dtype]]
NONE: Mapping = MappingProxyType({})  # no neighborhood has this capability
# Bytes of instance data a block stages in shared memory at most (--memory shared): under the 48 KB of static
# shared memory, with room for select.cu's reduction arrays.
SHARED_STAGING = 40 * 1024


class RoundKernel(NamedTuple):
    """A kernel of whole rounds of Ro-TS walks (KernelSet.rots_round): its source file, its data (the arguments
    before the walks' arrays), the bytes of shared memory a block takes, and its twin on CPU cores (run as the
    device's is, algorithms/elite/device.py's DeviceRounds.run)."""

    path: Path
    data: tuple[np.ndarray, ...]
    shared: int
    cpu: object


class WalkKernel(NamedTuple):
    """A kernel of a whole tabu step (KernelSet.walk_kernel): its name, its blocks per lane (None: the fused
    selection kernel's), and the bytes of memory it keeps per lane from one step to the next (the walk's own, told
    through `last` when a walk starts)."""

    name: str
    blocks: int | None
    memory: int = 0


def staging_refused(what: str, size: int) -> str | None:
    """Why `what` (of `size` bytes) is not staged in shared memory (KernelSet.shared_memory_refused), or None."""
    if size > SHARED_STAGING:
        return f"{what} take {size:,} bytes, more than the {SHARED_STAGING:,} a block stages in shared memory"
    return None


class KernelSet(ABC):
    """The kernels of one problem (`problem.kernels`). Subclass it beside the model (problems/<name>/kernels.py)
    and name the subclass in the problem's `kernel_set`; it is made on first use from the problem.

    What a subclass implements:
    - `data()`: constant arrays, uploaded once per run; `state_layout()` and `fill_state(x, state)`: the
      per-solution arrays the kernels read, and how to fill them for solution x (the arrays hold the previous
      call's values, zeros before the first: a kernel set may update them from there);
    - `cpu_kernel(nbh)`: a Numba function evaluating the whole neighborhood;
    - for the GPU, `cuda_file` (or `cuda_source(nbh)`), `cuda_kernel` (or `kernel_name(nbh, lanes)`) and
      `cuda_defines()` (compile-time constants). Without a CUDA source the problem runs on the cpu backend only.

    Kernels all take the same arguments: `*data(), *state, F` (Numba) or `*data(), *state, F, n_moves` (CUDA),
    F (n_neighbors, n_obj) receiving the objective vectors; state ends with the draw key (2,) uint64 when the
    neighborhood is sampled (Neighborhood.sampled). Kernels that take an id offset set `chunkable` (then
    `(..., F, first)` in Numba, `(..., F, n_moves, first)` in CUDA). CUDA kernels that take their lane's state
    and rows of F (backends/lane.cuh: blockIdx.y is the search) set `lane_kernels`: then many searches share
    each launch (GpuEvaluator's lanes).

    The optional device capabilities are declared by neighborhood name (`*_kernels`: name -> kernel; a
    neighborhood absent has none): a kernel that applies the chosen move to the state on the device
    (`apply_kernels`: arguments *data, *state, move id, its objective vector; one block, per lane with
    lane_kernels, move -1 ending the lane's walk; tabu walks then run on the device, algorithms/tabu/gpu_walk.py),
    one that makes a solution's state on the device (`load_kernels`: *data, *state, the solution, an int flag, 0
    for no solution; one block of algorithms.pls.device.LOAD_BLOCK threads; PLS then iterates on the device), one
    that evaluates and does select_partial's work in one pass without writing F (`selection_kernels`, compiled
    after algorithms/tabu/select.cu: *data, *state, n_moves, first, then select_partial's from c on), and one that
    derives arrays from the state on the device after each upload and each applied move (`prepare_kernels`: its
    name and threads; arguments *data, *state). `population_kernel` evaluates whole solutions, one thread each,
    taking `*population_data(), X (pop, size), F (pop, n_obj), pop` (backends/population.py).
    """

    cuda_file: Path | None = None  # the CUDA source of its kernels; None: no CUDA kernels (the cpu backend only)
    cuda_kernel: str = ""  # the evaluation kernel (kernel_name's default)
    chunkable: bool = False  # kernels take an id offset (see the class docstring)
    lane_kernels: bool = False  # its CUDA kernels serve several searches in one launch (backends/lane.cuh)
    threads_per_move: int = 1  # CUDA threads that share a move (move_threads' default); grids hold that many a move
    tuned_move_threads: int | None = None  # threads per move a launch set (Launch.move_threads); None: its own
    population_kernel: str | None = None  # CUDA: whole solutions evaluated, one thread each (see the docstring)
    apply_kernels: Mapping[str, str] = NONE  # neighborhood -> its kernel applying a move (the class docstring)
    load_kernels: Mapping[str, str] = NONE  # neighborhood -> its kernel loading a solution's state
    selection_kernels: Mapping[str, str] = NONE  # neighborhood -> its evaluation fused with the selection
    prepare_kernels: Mapping[str, tuple[str, int]] = NONE  # neighborhood -> (kernel, threads) run after uploads

    def __init__(self, problem: Problem):
        self.problem = problem

    @abstractmethod
    def data(self) -> tuple[np.ndarray, ...]:
        """Constant arrays, uploaded once per run."""

    @abstractmethod
    def state_layout(self) -> Layout:
        """Shapes and dtypes of the per-solution arrays the kernels read."""

    @abstractmethod
    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """Write the per-solution arrays for solution x into `state` (which holds the previous call's, or
        zeros: the evaluators allocate it zeroed)."""

    @abstractmethod
    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True) -> Callable:
        """A Numba function evaluating the whole neighborhood: (*data, *state, F) -> None. `incremental`:
        use the update from the previous solution where there is one (QAP: Taillard's)."""

    def cuda_source(self, nbh: Neighborhood) -> str:
        """The CUDA source of the kernels for `nbh` (compiled after the neighborhood's header)."""
        if self.cuda_file is None:
            raise MolsError(f"the {self.problem.name} problem has no CUDA kernel; use the cpu backend")
        return self.cuda_file.read_text()

    def cuda_defines(self) -> dict[str, int | str]:
        """Compile-time constants of the CUDA kernels, prepended as #define lines."""
        return {}

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        """The CUDA kernel that evaluates `nbh` for `lanes` searches sharing each launch."""
        return self.cuda_kernel

    def move_threads(self, nbh: Neighborhood) -> int:
        """CUDA threads that share a move in the kernels of `nbh` (by default threads_per_move)."""
        return self.threads_per_move

    def population_data(self) -> tuple[np.ndarray, ...]:
        """The constant arrays the population kernel reads before X (by default those of data())."""
        return self.data()

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """Why the kernels for `nbh` cannot stage the instance data in shared memory (--memory shared, the
        MEMORY 2 of backends/techniques.cuh), or None where they do. By default they have no such variant."""
        return f"the {self.problem.name} problem's kernels have no shared-memory staging of its data"

    def walk_kernel(self, nbh: Neighborhood, block: int) -> WalkKernel | None:
        """A kernel that takes a whole step of tabu walks in one launch, in blocks of `block` threads, where the
        neighborhood is one chunk and the selection fused (algorithms/tabu/gpu_walk.py; qap.cu's qap_walk_step,
        compiled after walk.cu with WALK_STEP): each block's part of the selection, then the last block of each
        lane does walk_step's and the apply kernel's work. Its last two arguments are the lanes' walk memory and
        `last` (an int64 per lane, -1 when a walk starts; the kernel keeps what it likes there). None: a step is
        the selection's kernels, walk_step and the apply kernel."""
        return None

    def rots_round(self, nbh: Neighborhood, threads: int) -> RoundKernel | None:
        """A kernel of whole rounds of Ro-TS walks, a block of `threads` per walk (algorithms/elite/device.py; qap's
        rots_round.cu, compiled after the problem's source), or None where there is none."""
        return None


def every(names, kernel: str) -> Mapping[str, str]:
    """The same kernel for each neighborhood of `names` (a declared capability that does not depend on it)."""
    return MappingProxyType(dict.fromkeys(names, kernel))


def value_type(dtype: np.dtype) -> str:
    """The C type of objective values of `dtype` (int32 or int64), the VAL of the problems' CUDA sources."""
    return "int" if dtype == np.int32 else "long long"
